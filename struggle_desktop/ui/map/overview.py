"""A small picture of the whole galaxy with a frame round what the main view shows; click or
drag in it to move the main view there.

It shares the main view's scene (nothing is drawn twice in memory); at its small scale the
items leave out their text (level of detail), so redrawing it costs little.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QFrame, QGraphicsView


class OverviewView(QGraphicsView):
    def __init__(self, main_view: QGraphicsView, parent=None, size: int = 220):
        super().__init__(parent)
        self.main_view = main_view
        self.setObjectName("map-overview")
        self.setFixedSize(size, size)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.Box)
        self.setStyleSheet("QGraphicsView { border: 1px solid #c9a640; background: black; }")
        self.setInteractive(False)            # no hovering, dragging or tooltips of its own
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setToolTip("Overview: click or drag to move the map")
        self.frame_pen = QPen(QColor("#ffd24a"), 1.5)
        self.frame_pen.setCosmetic(True)
        if hasattr(main_view, "visible_area_changed"):
            main_view.visible_area_changed.connect(self.viewport().update)
        else:
            main_view.horizontalScrollBar().valueChanged.connect(self.viewport().update)
            main_view.verticalScrollBar().valueChanged.connect(self.viewport().update)
        self._follow_scene()

    def _follow_scene(self) -> None:
        scene = self.main_view.scene()
        if scene is not self.scene():
            self.setScene(scene)
        if scene is not None:
            rect = scene.map_rect() if hasattr(scene, "map_rect") else scene.sceneRect()
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def showEvent(self, event) -> None:
        self._follow_scene()
        super().showEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._follow_scene()

    def visible_area(self) -> QRectF:
        """The part of the scene the main view shows, in scene units."""
        return self.main_view.mapToScene(self.main_view.viewport().rect()).boundingRect()

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        painter.setPen(self.frame_pen)
        painter.setBrush(QColor(255, 210, 74, 40))
        painter.drawRect(self.visible_area())

    def _recentre(self, event: QMouseEvent) -> None:
        self.main_view.centerOn(self.mapToScene(event.position().toPoint()))
        self.viewport().update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._recentre(event)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._recentre(event)
        event.accept()

    def wheelEvent(self, event) -> None:
        event.accept()            # the overview never zooms itself


__all__ = ["OverviewView"]
