"""Reminders by e-mail: when it becomes your turn in a turn-based game, and when its deadline
nears, to people who gave an address and allowed it (``store_reminders`` says whom, once).

Off until the server is given an SMTP server (``Mail.from_environment``: TMINUS_SMTP_HOST
and the rest). One e-mail lists every game waiting, at most one an hour per person, each
with a link to the game and an unsubscribe link (also as a List-Unsubscribe header, one
click: RFC 8058). Sent with aiosmtplib, a maintained asyncio SMTP client.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from email.message import EmailMessage

import aiosmtplib

from tminus.server.catalog import title_of
from tminus.server.storage import Store
from tminus.server.store_reminders import Reminder, Waiting

log = logging.getLogger("tminus.server")
EVERY = 3_600.0  # seconds: at most one e-mail an hour per person
WARNING = 6 * 3_600.0  # seconds before a deadline when its game is named again


@dataclass(frozen=True)
class Mail:
    """Where reminders go out: an SMTP server, and the address the links point to."""

    host: str
    port: int = 587
    sender: str = "T-minus <tminus@localhost>"
    user: str | None = None
    password: str | None = None
    security: str = "starttls"  # "starttls", "tls" (implicit) or "none" (a local relay)
    public_url: str = "http://127.0.0.1:8000"  # the server as people reach it

    @classmethod
    def from_environment(cls) -> Mail | None:
        """The settings in TMINUS_SMTP_HOST, _PORT, _FROM, _USER, _PASSWORD, _SECURITY and
        TMINUS_PUBLIC_URL; None (e-mail off) without a host."""
        env = os.environ
        host = env.get("TMINUS_SMTP_HOST")
        if not host:
            return None
        return cls(
            host=host,
            port=int(env.get("TMINUS_SMTP_PORT", "587")),
            sender=env.get("TMINUS_SMTP_FROM", cls.sender),
            user=env.get("TMINUS_SMTP_USER") or None,
            password=env.get("TMINUS_SMTP_PASSWORD") or None,
            security=env.get("TMINUS_SMTP_SECURITY", "starttls"),
            public_url=env.get("TMINUS_PUBLIC_URL", cls.public_url),
        )


def left_words(seconds: float) -> str:
    hours = max(0, round(seconds / 3_600))
    if hours >= 48:
        return f"{hours // 24} days"
    if hours >= 1:
        return f"{hours} h"
    return f"{max(1, int(seconds // 60))} min"


def game_line(mail: Mail, game: Waiting, now: float) -> str:
    link = f"{mail.public_url}/game/{game.game_id}#seat={game.seat}&token={game.token}"
    return f"- {title_of(game.game)}: {left_words(game.deadline - now)} left\n  {link}"


def message(mail: Mail, reminder: Reminder) -> EmailMessage:
    """The e-mail of one reminder."""
    unsubscribe = f"{mail.public_url}/unsubscribe/{reminder.unsubscribe}"
    count = len(reminder.games)
    email = EmailMessage()
    email["From"] = mail.sender
    email["To"] = reminder.email
    email["Subject"] = (
        f"Your move in {title_of(reminder.games[0].game)}"
        if count == 1
        else f"Your move in {count} games"
    )
    email["List-Unsubscribe"] = f"<{unsubscribe}>"
    email["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    lines = [game_line(mail, game, reminder.now) for game in reminder.games]
    email.set_content(
        f"Hello {reminder.name},\n\n"
        f"{'A game is' if count == 1 else 'These games are'} waiting for your move:\n\n"
        + "\n".join(lines)
        + "\n\nWhen the time is out, the game's maker decided what happens (a bot plays for "
        "you until you are back, or you lose).\n\n"
        f"No more e-mails: {unsubscribe}\n"
    )
    return email


async def send_reminders(store: Store, mail: Mail | None) -> int:
    """Send the reminders due now (claimed from the store): how many went."""
    if mail is None:
        return 0
    sent = 0
    for reminder in await store.claim_reminders(EVERY, WARNING):
        try:
            await aiosmtplib.send(
                message(mail, reminder), hostname=mail.host, port=mail.port,
                username=mail.user, password=mail.password,
                use_tls=mail.security == "tls", start_tls=mail.security == "starttls",
                timeout=30,
            )  # fmt: skip
        except (aiosmtplib.SMTPException, OSError) as error:  # (at most once: not retried)
            log.warning("a reminder to %s could not be sent: %s", reminder.email, error)
            continue
        sent += 1
    return sent
