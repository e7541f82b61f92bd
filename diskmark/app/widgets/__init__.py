"""Widgets of the main window: top bar, result grid and tiles, status line."""
