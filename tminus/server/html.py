"""The pages the server writes itself, in the table's look: a page that says one thing (an
unknown address, a review being made) and a game's rules, its Markdown rendered here."""

from __future__ import annotations

from html import escape
from importlib.resources import files
from string import Template

from markdown_it import MarkdownIt

from tminus.core.registry import rules_text

WEB = files("tminus.web")
# The pages served (see SecurityHeaders).
PAGES = (
    "index.html",
    "game.html",
    "rules.html",
    "account.html",
    "player.html",
    "leaderboard.html",
    "puzzles.html",
)
# A wide table scrolls inside its own box, which the keyboard can reach.
TABLE_OPEN = '<div class="table-scroll" tabindex="0" role="region" aria-label="table"><table>\n'


def message_page(
    title: str,
    text: str,
    back: str = "/",
    again: float | None = None,
    back_text: str = "",
    meter: tuple[int, int] | None = None,
) -> str:
    """A small page that says one thing, in the table's look, with a way back (``back``: the
    game's page, or the lobby); ``again``: seconds after which it reloads; ``meter``: (done,
    all) shown as a progress bar."""
    reload = f'<meta http-equiv="refresh" content="{again:g}">' if again else ""
    bar = (
        f'<progress value="{meter[0]}" max="{max(meter[1], 1)}" aria-label="{escape(title)}">'
        f"{meter[0]} of {meter[1]}</progress>"
        if meter
        else ""
    )
    back_text = back_text or ("Back to the lobby" if back == "/" else "Back to the game")
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{reload}<title>{escape(title)} · T-minus</title>"
        '<link rel="icon" href="/static/favicon.svg">'
        '<link rel="stylesheet" href="/static/css/app.css"></head>'
        f'<body><main class="message-page"><h1>{escape(title)}</h1><p role="status">'
        f'{escape(text)}</p>{bar}<p><a href="{escape(back)}">{escape(back_text)}</a></p></main>'
        "</body></html>"
    )


def confirm_page(title: str, text: str, action: str, button: str) -> str:
    """A small page that asks before it acts: one button posting to ``action``."""
    form = (
        f'<form method="post" action="{escape(action)}">'
        f'<button type="submit" class="primary">{escape(button)}</button></form>'
    )
    page = message_page(title, text)
    return page.replace('<p><a href="/">', f'{form}<p><a href="/">', 1)


def _markdown() -> MarkdownIt:
    """CommonMark with tables; raw HTML in the text is escaped, so rules cannot inject any."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("table_open", lambda *_: TABLE_OPEN)
    md.add_render_rule("table_close", lambda *_: "</table></div>\n")
    return md


MARKDOWN = _markdown()


def rules_page(game: str) -> tuple[str, int]:
    """The rules of ``game`` as a page (``tminus/web/rules.html``), titled by their heading,
    and its HTTP status: for a game not installed here, or with no rules page yet, a page
    that says so, not found (404)."""
    try:
        text = rules_text(game)
    except ValueError as error:
        return _rules_template().substitute(title="Rules", rules=escape(str(error))), 404
    tokens = MARKDOWN.parse(text)
    heading = next(
        (tokens[i + 1] for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1"),
        None,
    )
    words = (heading.children or []) if heading is not None else []
    title = "".join(t.content for t in words if t.type in ("text", "code_inline")) or game
    body = MARKDOWN.renderer.render(tokens, MARKDOWN.options, {})
    return _rules_template().substitute(title=escape(f"{title} rules"), rules=body), 200


def _rules_template() -> Template:
    return Template((WEB / "rules.html").read_text(encoding="utf-8"))
