"""The terminal game (Textual): a shell over :class:`~feltro.session.Session`.

:class:`~feltro.tui.app.PlayApp` is the game; :mod:`feltro.tui.table_screen` its table screen;
:mod:`feltro.tui.render` and :mod:`feltro.tui.text` turn views into text in three languages;
:mod:`feltro.tui.datadir` keeps the series and hand histories in the user's data folder;
:mod:`feltro.tui.history` steps through saved hands. Nothing here holds game state or imports
the server.
"""
