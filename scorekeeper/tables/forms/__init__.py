"""Forms turn what was tapped or typed into the engine's values; the engine judges them.

One module a kind of form: ``setup`` (starting a match), ``entry`` (what every entry form
shares), one module a game's entries (``straight``, ``sedma``, ``chickenfoot``) and ``games``
(which form a game uses), ``corrections`` (a hand corrected row by row) and ``files`` (the
outbox's waiting entries, a match file)."""
