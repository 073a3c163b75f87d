"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives: the reminders'
tests read their e-mails from it."""

from __future__ import annotations

import contextlib
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from .live import free_port


class Inbox:
    """What the SMTP server received, as e-mails."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # (aiosmtpd's name)
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@contextlib.contextmanager
def smtp_server():
    """An SMTP server on a free loopback port: (its inbox, its port)."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield inbox, controller.port
    finally:
        controller.stop()
