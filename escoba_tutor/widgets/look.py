"""Layout and style models shared by the children of one composite widget."""

from __future__ import annotations

from functools import cached_property

import ipywidgets as w
from ipywidgets.widgets.widget_bool import ToggleButtonStyle
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

__all__ = ["SharedLook"]


class SharedLook:
    """One Layout and one style model of each kind, shared by the children of one composite widget whose layout
    and style never change. Every model is one more thing the page must create before it draws anything: a
    capture table made 45 with a layout and a style per child, 30 with these. A child whose layout changes (shown
    and hidden, say) keeps its own."""

    @cached_property
    def layout(self) -> w.Layout:
        return w.Layout()

    @cached_property
    def button(self) -> w.ButtonStyle:
        return w.ButtonStyle()

    @cached_property
    def toggle(self) -> ToggleButtonStyle:
        return ToggleButtonStyle()

    @cached_property
    def html(self) -> HTMLStyle:
        return HTMLStyle()

    @cached_property
    def description(self) -> DescriptionStyle:
        return DescriptionStyle()
