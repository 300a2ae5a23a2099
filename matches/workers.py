"""The task registry and the broker's health, for the matches services: ``league.queue`` (one registry for
both apps, as the league queues work too)."""

from league.queue import broker_available, broker_reset, queue, register, task

__all__ = ["broker_available", "broker_reset", "queue", "register", "task"]
