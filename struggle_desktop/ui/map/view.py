"""The map view: zoom (wheel about the cursor, steps, whole map), pan by dragging the empty map,
and a signal whenever the visible area changes (for the overview).

The first view (``first_view``) is the whole map when the window is large enough to read it;
on a small screen it zooms in, about the middle of the galaxy, just enough that the map's
smallest text reaches ``LEGIBLE_SCALE`` (Whole Map, Ctrl+0, still shows everything); a scene
may name its own legible scale and the point to show first (``first_view``). The view
also follows what the scene asks to be seen (a Chaos step's callout, ``follow``), and can
show a banner in its top-left corner (a mode that is on, ``set_banner``).

Counters handle their own drags through the scene; a press that no counter takes pans the
map, and the scene turns a press released on the spot into a sector click. Everything is
drawn as vectors at the current scale, so the map is sharp at every zoom; only the static sky
is cached, and that cache is redrawn at device resolution whenever the zoom changes.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QFrame, QGraphicsView, QLabel

ZOOM_STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.5, 16.0      # relative to the whole-map fit
FIT_MARGIN = 8.0                    # map units of sky round the map at the default zoom
#: Screen pixels per map unit at which the map's smallest text can be read: sector names and
#: the smallest words on counters (9 map units, counters.SMALL_TEXT) are then 9 pixels high.
#: The whole map in the window of a 1366x768 screen is about 0.48: the first view zooms in to
#: this and shows about half the galaxy's width round the Core (the overview shows the rest).
LEGIBLE_SCALE = 1.0
FOLLOW_MARGIN = 16                  # pixels kept round a followed area


class MapView(QGraphicsView):
    visible_area_changed = Signal()

    def __init__(self, scene=None, parent=None):
        super().__init__(parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)   # see set_zoom
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        # The sky and the Void never change: cache them (at device resolution, redrawn on zoom).
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setMouseTracking(True)
        self.setBackgroundBrush(Qt.GlobalColor.black)
        # A map pans by dragging; scroll bars would only take room from it.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setObjectName("map-view")
        self._pan_from: QPoint | None = None
        self._fitted = True          # follow the window size until the player zooms
        self._first = False          # ... keeping the legible first view (see first_view)
        # On the view, not its viewport: a viewport's children scroll with the map.
        self.banner = QLabel(self)
        self.banner.setObjectName("map-banner")
        self.banner.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.banner.setStyleSheet("QLabel#map-banner { background: rgba(20, 16, 4, 225); "
                                  "color: #ffe9a8; border: 1px solid #f2c84b; "
                                  "border-radius: 4px; padding: 4px 8px; font-weight: bold; }")
        self.banner.hide()
        self.base_scale = 1.0        # the scale at which the whole map fits
        if scene is not None:
            self.setScene(scene)

    # ------------------------------------------------------------------ zoom
    @property
    def zoom(self) -> float:
        """The scale relative to the whole-map fit (1.0 is the default zoom)."""
        return self.transform().m11() / self.base_scale if self.base_scale else 1.0

    def _map_rect(self) -> QRectF:
        scene = self.scene()
        if scene is None:
            return QRectF()
        rect = scene.map_rect() if hasattr(scene, "map_rect") else scene.sceneRect()
        return rect.adjusted(-FIT_MARGIN, -FIT_MARGIN, FIT_MARGIN, FIT_MARGIN)

    def _fit_scale(self) -> float:
        rect = self._map_rect()
        port = self.viewport().rect()
        if rect.isEmpty() or port.isEmpty():
            return 1.0
        return min(port.width() / rect.width(), port.height() / rect.height())

    def set_zoom(self, zoom: float, about: QPoint | None = None) -> None:
        """Scale to ``zoom`` times the whole-map fit (clamped), keeping the map point under
        the viewport point ``about`` (default: the middle) where it is."""
        zoom = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        self.base_scale = self._fit_scale()
        about = about if about is not None else self.viewport().rect().center()
        fixed = self.mapToScene(about)
        self._set_pan_range(zoom * self.base_scale)
        self._first = False
        factor = zoom * self.base_scale / (self.transform().m11() or 1.0)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(factor, factor)
        # Scroll so that the fixed point is back under ``about``.
        moved = self.mapFromScene(fixed) - about
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + moved.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + moved.y())
        self._fitted = False
        self.visible_area_changed.emit()

    def _set_pan_range(self, scale: float) -> None:
        """How far the map may be dragged: zoomed in, until its edge reaches the middle of
        the window (so any sector can be centred); at the whole-map zoom, not at all."""
        rect = self._map_rect()
        if rect.isEmpty():
            return
        if scale <= self._fit_scale() * 1.05:
            self.setSceneRect(rect)
            return
        pad_x = self.viewport().width() / scale / 2
        pad_y = self.viewport().height() / scale / 2
        self.setSceneRect(rect.adjusted(-pad_x, -pad_y, pad_x, pad_y))

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom / ZOOM_STEP)

    def zoom_reset(self) -> None:
        """The default zoom: the whole galaxy in the window."""
        self.fit()

    def fit(self) -> None:
        """Fit the whole map to the window, and keep it fitted while the window is resized."""
        if self.scene() is None:
            return
        self.base_scale = self._fit_scale()
        self._set_pan_range(self.base_scale)
        self.resetTransform()
        self.scale(self.base_scale, self.base_scale)
        self.centerOn(self._map_rect().center())
        self._fitted = True
        self._first = False
        self.visible_area_changed.emit()

    def first_view(self) -> None:
        """The view a game opens with: the whole map if its text can be read there, else the
        map at the scale where it can (``LEGIBLE_SCALE``, or the scene's own
        ``legible_scale``) about the middle of the galaxy (or the point the scene names in
        ``first_view_focus()``, the view kept inside the map); kept while the window is
        resized, until the player zooms or pans."""
        scene = self.scene()
        if scene is None:
            return
        legible = getattr(scene, "legible_scale", LEGIBLE_SCALE)
        fit = self._fit_scale()
        if fit >= legible:
            self.fit()
            return
        self.fit()
        self.set_zoom(legible / fit)
        self.centerOn(self._first_centre())
        self._first = True
        self.visible_area_changed.emit()

    def _first_centre(self) -> QPointF:
        """The middle of the map, or the scene's focus moved just enough that the view shows
        no sky beyond the map's edges."""
        rect = self._map_rect()
        focus = getattr(self.scene(), "first_view_focus", lambda: None)()
        if focus is None:
            return rect.center()
        scale = self.transform().m11() or 1.0
        half_w = self.viewport().width() / scale / 2
        half_h = self.viewport().height() / scale / 2

        def within(value: float, low: float, high: float) -> float:
            return (low + high) / 2 if low > high else min(max(value, low), high)

        return QPointF(within(focus.x(), rect.left() + half_w, rect.right() - half_w),
                       within(focus.y(), rect.top() + half_h, rect.bottom() - half_h))

    def follow(self, rect: QRectF) -> None:
        """Scroll so that ``rect`` (scene units) is on screen, if it is not; an area larger
        than the window is centred."""
        if rect.isNull() or self.visible_area().contains(rect):
            return
        self._first = False
        scale = self.transform().m11() or 1.0
        room_x = self.viewport().width() / scale
        room_y = self.viewport().height() / scale
        margin = FOLLOW_MARGIN / scale
        if rect.width() + 2 * margin > room_x or rect.height() + 2 * margin > room_y:
            self.centerOn(rect.center())
        else:
            self.ensureVisible(rect, FOLLOW_MARGIN, FOLLOW_MARGIN)
        self.visible_area_changed.emit()

    def set_banner(self, text: str) -> None:
        """Show ``text`` in the top-left corner of the map (an empty text hides it)."""
        self.banner.setText(text)
        self.banner.setVisible(bool(text))
        if text:
            self.banner.adjustSize()
            self.banner.move(self.viewport().geometry().topLeft() + QPoint(10, 10))
            self.banner.raise_()

    def setScene(self, scene) -> None:
        old = self.scene()
        if old is not None and hasattr(old, "wants_visible"):
            try:
                old.wants_visible.disconnect(self.follow)
            except (RuntimeError, TypeError):
                pass
        super().setScene(scene)
        if scene is not None and hasattr(scene, "wants_visible"):
            scene.wants_visible.connect(self.follow)

    def centre_on_sector(self, n: int) -> None:
        scene = self.scene()
        if scene is not None and n in getattr(scene, "geometry", {}):
            self._first = False
            self.centerOn(scene.sector_center(n))
            self.visible_area_changed.emit()

    def visible_area(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    # ------------------------------------------------------------------ events
    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.set_zoom(self.zoom * ZOOM_STEP ** steps, about=event.position().toPoint())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        super().mousePressEvent(event)        # a counter may take it (drag) ...
        if not event.isAccepted() and event.button() == Qt.MouseButton.LeftButton:
            self._pan_from = event.position().toPoint()     # ... otherwise the map pans
            event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None and event.buttons() & Qt.MouseButton.LeftButton:
            point = event.position().toPoint()
            delta = point - self._pan_from
            if delta.manhattanLength():
                self._first = False          # the player has moved the map: keep it there
                self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
                self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
                self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
                self._pan_from = point
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().unsetCursor()
        super().mouseReleaseEvent(event)      # the scene decides whether it was a click

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.visible_area_changed.emit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._first:
            self.first_view()   # keep the legible first view while the window is resized
        elif self._fitted:
            self.fit()      # keep the whole map in view while the window is resized
        else:
            self.base_scale = self._fit_scale()
            self._set_pan_range(self.transform().m11())
        self.visible_area_changed.emit()


__all__ = ["MapView"]
