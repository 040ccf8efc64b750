"""Pushed updates: a change announces the pages it moves, and every open page that shows one of
them is told at once over its stream (server-sent events), instead of asking every two seconds.

- ``announce`` (announce.py) is called by the services that change what a live page shows, in
  their transaction: it writes one row per topic (``LiveChange``: its id is the event's id) and,
  once the transaction commits (for an entry at a table, once it has drawn what the watchers
  are given: ``told_when_drawn``), tells this process's streams and the other processes'.
- ``hub`` (hub.py): this process's open streams by topic, with the caps on how many are held.
- The fan-out between processes (fanout.py): Redis pub/sub where ``REDIS_URL`` is set, else
  LISTEN/NOTIFY on PostgreSQL, else (SQLite) one look at the newest rows per process every
  tenth of a second, shared by every stream the process holds.
- ``streams.stream`` (streams.py) answers a page's stream; the views that check who may watch
  what live with the pages (table_pages, leagues, nights).

An event says only that a topic moved and carries its id; the page then asks its usual poll
address, naming the version it shows, and is answered the same fragment the poll answers
(304 if it already shows it). Topics: ``match:<id>`` (a table's scoreboard), ``season:<id>``
(the wall board), ``night:<id>`` (the night's board, desk and pairings, the round clock).
Nothing here imports the apps that use it.
"""
