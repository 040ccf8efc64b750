from __future__ import annotations

from django.db import models


class LiveChange(models.Model):
    """A topic moved (announce.py). The id orders the changes and is the event's id a page's
    stream is sent, and sends back when it reconnects (``Last-Event-ID``): what it missed is
    what came after. Rows older than an hour are let go (fanout.py): a page asleep longer
    is sent one event and draws itself afresh."""

    id = models.BigAutoField(primary_key=True)
    topic = models.CharField(max_length=40)
    #: the event's name: "changed" (redraw), or "clock" (the round clock's line alone)
    event = models.CharField(max_length=10, default="changed")
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["topic", "id"], name="live_topic_newest")]

    def __str__(self) -> str:
        return f"{self.id} {self.topic} {self.event}"
