"""``alhambra-referee serve``: the table scoring page, served on this computer.

Starts a small local web server (standard library) and prints its address; the page lays out
each Alhambra by tapping cells and picking tiles and asks the server, which scores the position
block with the ``score`` command's code (see ``docs/serve.md``). Bound to 127.0.0.1 unless
``--host`` names another address; serving the local network prints a warning.
"""

from __future__ import annotations

import click

from referee.reports.i18n import lang_option

EXIT_OK, EXIT_SYNTAX, EXIT_USAGE = 0, 2, 3

_TEXT = {
    "en": {
        "serving": "Scoring at the table: {url}  (Ctrl+C stops the server)",
        "network": "WARNING: serving the local network on {host}: every computer and phone that "
        "can reach this machine can open the page and use the referee. Use it only on a network "
        "you trust; the default, 127.0.0.1, serves this computer alone.",
        "cannot": "cannot serve on {host}:{port}: {why}",
        "stopped": "stopped",
    },
    "de": {
        "serving": "Wertung am Tisch: {url}  (Strg+C beendet den Server)",
        "network": "WARNUNG: Der Server ist im lokalen Netz erreichbar ({host}): jeder Rechner "
        "und jedes Telefon, das diesen Rechner erreicht, kann die Seite öffnen und den "
        "Schiedsrichter benutzen. Nur in einem vertrauenswürdigen Netz verwenden; die "
        "Voreinstellung 127.0.0.1 bedient nur diesen Rechner.",
        "cannot": "kann nicht auf {host}:{port} bereitstellen: {why}",
        "stopped": "beendet",
    },
}


@click.command("serve")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="TCP port (0: any free port; the address is printed).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but a loopback address (e.g. 0.0.0.0) serves the "
    "local network: a warning is printed.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@lang_option
def command(port: int, host: str, open_browser: bool, lang: str) -> int:
    """Serve the table scoring page on this computer: lay out each Alhambra by tapping cells
    and picking tiles, and the referee scores it.

    The page writes the position block (copy it into a record; `score` of it gives the same
    result) and loads one (paste or file). English and German; works on a phone; needs no
    internet. Stop it with Ctrl+C.

    \b
    Examples:
      alhambra-referee serve --open
      alhambra-referee serve --port 8080 --lang de
      alhambra-referee serve --host 0.0.0.0    # phones on the same network (warning)
    """
    from referee.serve.server import Server, is_loopback

    words = _TEXT.get(lang, _TEXT["en"])
    local = is_loopback(host)
    try:
        server = Server(host, port, check_host=local)
    except (OSError, OverflowError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        click.echo(words["cannot"].format(host=host, port=port, why=why), err=True)
        return EXIT_USAGE
    if not local:
        click.echo(words["network"].format(host=host), err=True)
    url = server.url + ("?lang=de" if lang == "de" else "")
    click.echo(words["serving"].format(url=url))
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo(words["stopped"], err=True)
    finally:
        server.server_close()
    return EXIT_OK
