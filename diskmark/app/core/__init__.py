"""What every room of the app reads and nothing in it draws: the state, the keys in effect,
the app as its parts see it, and what the app announces. Below the screens and the widgets."""
