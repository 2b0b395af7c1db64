"""The recruitment panel as a dock (the window brings it forward while the rules wait for
recruitment).

The panel itself (what can be bought, prices, legal sectors, RP left) is
``dialogs.recruit.RecruitPanel``; this dock only hosts it next to the map so that the player
can buy several things while watching where they appear.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from struggle_desktop.ui.docks.base import DockPanel


class RecruitDock(DockPanel):
    object_name = "dock-recruit"
    title = "Recruitment"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def __init__(self, document, parent=None, perform=None):
        self._perform = perform
        super().__init__(document, parent)

    def create_widget(self) -> QWidget:
        from struggle_desktop.ui.dialogs.recruit import RecruitPanel
        self.panel = RecruitPanel(self.document, self, perform=self._perform)
        return self.panel

    def update_widget(self) -> None:
        self.panel.refresh()
