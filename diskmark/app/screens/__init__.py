"""Screens and dialogs pushed over the main window."""
