"""The server of ``alhambra-referee serve``: its answers agree with ``score``, it binds to
localhost, and malformed, oversize or hostile requests get a clear JSON error (never a
traceback, never a hang)."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_support import running_server, score_json
from test_hardening_cli import run

from referee.catalogue import catalogue
from referee.geometry import Alhambra, legal_cells
from referee.record.model import Coord
from referee.serve import api
from referee.serve import server as server_module
from referee.serve.server import MAX_BODY, Server, TooLong, is_loopback, run_limited

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SIX = (EXAMPLES / "final-6p.alh").read_text("utf-8")
DIRK = (EXAMPLES / "final-2p-dirk.alh").read_text("utf-8")


@pytest.fixture(scope="module")
def srv() -> Iterator[Server]:
    with running_server() as server:
        yield server


def _request(
    server: Server,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(str(host), int(port), timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def _post(server: Server, path: str, data: Any) -> tuple[int, dict[str, Any]]:
    body = json.dumps(data).encode("utf-8")
    status, headers, raw = _request(
        server, "POST", path, body, {"Content-Type": "application/json"}
    )
    assert headers["content-type"].startswith("application/json")
    assert b"Traceback" not in raw
    return status, json.loads(raw)


# ------------------------------------------------------------------------ the same as score


GOLDEN = EXAMPLES.parent / "tests" / "golden" / "score"


@pytest.mark.parametrize(
    "path",
    [
        EXAMPLES / "final-6p.alh",
        EXAMPLES / "final-2p-dirk.alh",
        EXAMPLES / "final-counts.alh",
        GOLDEN / "module-plaetze-final.alh",  # module pieces in the Alhambras
        GOLDEN / "module-bonuskarten-final.alh",  # a module's line in a player's section
    ],
    ids=lambda p: p.name,
)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_score_answer_is_the_score_commands(srv: Server, path: Path, lang: str) -> None:
    text = path.read_text("utf-8")
    status, answer = _post(srv, "/api/score", {"text": text, "lang": lang})
    assert status == 200 and answer["ok"]
    _code, game = score_json(text, "--lang", lang)
    mine = dict(answer["game"], file="<stdin>")
    assert mine == game
    # each finding is the command's problem, with the cells it is about
    assert [{k: v for k, v in f.items() if k != "cells"} for f in answer["findings"]] == [
        dict(p, player=p["player"] or f["player"])
        for p, f in zip(game["problems"], answer["findings"], strict=True)
    ]


def test_an_intermediate_scoring_is_the_commands_round(srv: Server) -> None:
    status, answer = _post(srv, "/api/score", {"text": SIX, "round": 2})
    assert status == 200
    assert answer["game"]["scoring"] == score_json(SIX, "--round", "2")[1]["scoring"]


def test_findings_name_their_tiles(srv: Server) -> None:
    text = (
        '[Players "Anna, Ben, Cem"]\n\nposition\n  player Anna\n'
        "    alhambra T13@1,0 C7ne@2,0 G6@5,5\n  player Ben\n    alhambra T13@0,1\n"
        "  player Cem\nend\n"
    )
    status, answer = _post(srv, "/api/score", {"text": text})
    assert status == 200
    by_code = {(f["code"], f["player"]): f["cells"] for f in answer["findings"]}
    assert by_code[("PLACE-WALL", "Anna")] == ["1,0", "2,0"]  # both tiles of the pair
    assert by_code[("PLACE-ADJACENT", "Anna")] == ["5,5"]
    assert by_code[("TILE-TWICE", "Ben")] == ["0,1"]
    _code, game = score_json(text)
    assert [f["code"] for f in answer["findings"]] == [p["code"] for p in game["problems"]]


def test_the_drawings_are_the_replays_with_the_scored_wall(srv: Server) -> None:
    from referee.reports.svg import alhambra_fragment
    from referee.reports.terminal import cells_of
    from referee.scoring.position import score_position

    status, answer = _post(srv, "/api/score", {"text": SIX})
    assert status == 200
    from referee.notation import parse_text

    found = score_position(parse_text(SIX, "x")[0])
    for name, alh in found.alhambras.items():
        row = found.result.row(name)  # type: ignore[union-attr]
        assert answer["layouts"][name] == alhambra_fragment(
            cells_of(alh),
            "en",
            longest=tuple(row.wall.segments),
            pad=1,  # type: ignore[union-attr]
        )
        assert 'class="longest"' in answer["layouts"][name]


def test_module_pieces_and_lines_come_back_in_the_model(srv: Server) -> None:
    text = (GOLDEN / "module-plaetze-final.alh").read_text("utf-8")
    _status, answer = _post(srv, "/api/score", {"text": text})
    model = answer["model"]
    assert model["modules"] == "plaetze"
    assert model["players"][0]["cells"]["-1,2"] == "sq:Tn"
    assert 'data-at="-1,2"' in answer["layouts"]["Anna"]  # the square is drawn
    text = (GOLDEN / "module-bonuskarten-final.alh").read_text("utf-8")
    _status, answer = _post(srv, "/api/score", {"text": text})
    extra = [line for p in answer["model"]["players"] for line in p["extra"]]
    assert extra and all(line.startswith("bonus") for line in extra)


def test_the_model_reads_the_block_back(srv: Server) -> None:
    _status, answer = _post(srv, "/api/score", {"text": DIRK})
    model = answer["model"]
    assert [p["name"] for p in model["players"]] == ["Kim", "Nina"]
    assert model["dirk"][:3] == ["S9", "T8", "C8"]
    assert model["players"][0]["cells"]["1,3"] == "G8sw"
    assert model["players"][0]["score"] == 53 and model["scorings"] == 2
    assert model["rules"] == "queen-2003"


def test_leftover_tiles_go_to_the_most_money_as_the_engine_counts(srv: Server) -> None:
    text = (
        '[Players "Anna, Ben, Cem"]\n\nposition\n  market Gu:T13 Di:- De:G6 Du:-\n'
        "  player Anna\n    hand Gu9 Gu3 De2\n  player Ben\n    hand Gu5 De2\n"
        "  player Cem\n    hand Du7\nend\n"
    )
    status, answer = _post(srv, "/api/score", {"text": text})
    assert status == 200
    assert [(x["field"], x["tile"], x["player"]) for x in answer["leftovers"]] == [
        ("Gu", "T13", "Anna"),  # 12 Gulden against 5
        ("De", "G6", None),  # 2 against 2: nobody
    ]


def test_the_tiles_that_fit_are_the_engines_legal_cells(srv: Server) -> None:
    from referee.notation import parse_text
    from referee.scoring.position import score_position

    alh: Alhambra = score_position(parse_text(SIX, "x")[0]).alhambras["Anna"]
    fitting = 0
    for at in ("-1,1", "1,1", "-2,0", "2,0", "0,-2", "-3,-1"):
        status, answer = _post(srv, "/api/fit", {"text": SIX, "player": "Anna", "at": at})
        assert status == 200
        cell = Coord(*(int(v) for v in at.split(",")))
        fits = {t["code"] for t in answer["tiles"] if t["fits"]}
        assert fits == {k.code for k in catalogue().tiles if cell in legal_cells(alh, k)}, at
        fitting += len(fits)
        for t in answer["tiles"]:  # a tile that does not fit says why, in the engine's codes
            assert t["fits"] == (not t["problems"])
            assert all(p["code"].startswith("PLACE-") for p in t["problems"])
    assert fitting  # some tile fits somewhere
    used = {t["code"]: t["used_by"] for t in answer["tiles"] if t["used_by"]}
    assert used["P2"] == "Anna" and used["A4"] == "Anna"  # Alhambra and reserve
    assert used["S4"] == "Ben"
    assert len(answer["tiles"]) == 54
    # a cell with a tile: which tiles could lie there instead (its own tile is free again)
    status, again = _post(srv, "/api/fit", {"text": SIX, "player": "Anna", "at": "0,1"})
    assert next(t for t in again["tiles"] if t["code"] == "P2")["used_by"] is None
    assert next(t for t in again["tiles"] if t["code"] == "P2")["fits"]


def test_supply_tiles_name_who_holds_them(srv: Server) -> None:
    status, answer = _post(srv, "/api/fit", {"text": DIRK})
    assert status == 200
    used = {t["code"]: t["used_by"] for t in answer["tiles"]}
    assert used["S9"] == "Dirk" and used["T11n"] == "Nina"


def test_the_catalogue(srv: Server) -> None:
    status, _headers, raw = _request(srv, "GET", "/api/catalogue")
    data = json.loads(raw)
    assert status == 200 and len(data["tiles"]) == 54
    assert {t["full"] for t in data["tiles"]} == {k.full_code for k in catalogue().tiles}
    assert "queen-2003" in data["profiles"] and "plaetze" in [m["name"] for m in data["modules"]]


# ------------------------------------------------------------------------ the page and assets


def test_the_page_and_its_bundled_assets(srv: Server) -> None:
    status, headers, raw = _request(srv, "GET", "/")
    page = raw.decode("utf-8")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert "http://" not in page and "https://" not in page  # nothing from the internet
    for path in ("/assets/serve.js", "/assets/serve.css"):
        status, headers, raw = _request(srv, "GET", path)
        assert status == 200 and len(raw) > 1000
        text = raw.decode("utf-8").replace("http://www.w3.org/2000/svg", "")  # a name, no load
        assert "http://" not in text and "https://" not in text and "@import" not in text
    status, _h, raw = _request(srv, "GET", "/?lang=de")
    assert '<html lang="de">' in raw.decode("utf-8")
    status, _h, raw = _request(srv, "GET", "/assets/serve.css")
    assert ".tile" in raw.decode("utf-8") and ".alh .longest" in raw.decode("utf-8")  # replay's


def test_the_script_sets_no_markup() -> None:
    """Record and player text reaches the page only through textContent: the script has no
    innerHTML, outerHTML, insertAdjacentHTML, document.write or eval (comments aside)."""
    import re
    from importlib import resources

    script = resources.files("referee.serve").joinpath("assets", "serve.js").read_text("utf-8")
    code = re.sub(r"/\*.*?\*/", "", script, flags=re.S)
    code = "\n".join(line.split("//")[0] for line in code.splitlines())
    for word in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert word not in code, word
    assert "textContent" in code


def test_the_assets_ship_as_package_data() -> None:
    import configparser
    from importlib import resources

    for name in ("serve.js", "serve.css"):
        assert resources.files("referee.serve").joinpath("assets", name).is_file()
    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).resolve().parents[1] / "setup.cfg")
    assert "referee.serve" in cfg["options"]["packages"].split()
    assert "assets/*.js" in cfg["options.package_data"]["referee.serve"]


# ------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        (b"{not json", {"Content-Type": "application/json"}, 400),
        (b"\xff\xfe\x00", {"Content-Type": "application/json"}, 400),
        (b"[1, 2]", {"Content-Type": "application/json"}, 400),
        (b"[" * 100_000 + b"]" * 100_000, {"Content-Type": "application/json"}, 413),
        (b"[" * 50_000 + b"]" * 50_000, {"Content-Type": "application/json"}, 400),
        (b'{"text": 5}', {"Content-Type": "application/json"}, 400),
        (b'{"text": "x", "round": 7}', {"Content-Type": "application/json"}, 400),
        (b'{"text": "position\\nend\\n"}', {"Content-Type": "text/plain"}, 415),
        (
            b'{"text": "position\\nend\\n"}',
            {"Content-Type": "application/x-www-form-urlencoded"},
            415,
        ),
    ],
)
def test_malformed_requests_get_a_clear_error(
    srv: Server, body: bytes, headers: dict[str, str], status: int
) -> None:
    got, answer_headers, raw = _request(srv, "POST", "/api/score", body, headers)
    assert got == status
    assert answer_headers["content-type"].startswith("application/json")
    answer = json.loads(raw)
    assert answer["error"] and "Traceback" not in answer["error"]


def test_an_oversize_body_is_refused_unread(srv: Server) -> None:
    host, port = srv.server_address[:2]
    with socket.create_connection((str(host), int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            b"Content-Length: 999999999\r\n\r\n" % int(port)
        )
        chunks = []
        while chunk := sock.recv(4096):  # the server closes the connection after a refusal
            chunks.append(chunk)
        answer = b"".join(chunks).decode("utf-8", "replace")
    assert answer.startswith("HTTP/1.1 413")
    assert f"at most {MAX_BODY}" in answer


def test_a_missing_length_and_a_short_body(srv: Server) -> None:
    host, port = srv.server_address[:2]
    with socket.create_connection((str(host), int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
            b"Content-Type: application/json\r\n\r\n" % int(port)
        )
        assert sock.recv(4096).startswith(b"HTTP/1.1 411")


def test_a_silent_client_is_dropped_and_others_are_served(
    srv: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module.Handler, "timeout", 0.5)
    host, port = srv.server_address[:2]
    with socket.create_connection((str(host), int(port)), timeout=10) as sock:
        sock.sendall(b"POST /api/score HTTP/1.1\r\n")  # and nothing more
        status, _h, _raw = _request(srv, "GET", "/api/catalogue")  # served meanwhile
        assert status == 200
        sock.settimeout(10)
        assert sock.recv(4096) == b""  # the server closed it


@pytest.mark.parametrize(
    "text",
    [
        "position\n  player A\n    alhambra T13@999999999,0\nend\n",  # out of range
        "position\n  player A\n    score 99999999999999999999\nend\n",  # too many digits
        "position\n  player A\x00\n    alhambra T13@1,0\nend\n",  # a NUL byte
        "position\n  player A\n    alhambra T14@1,0 G10@0,1\nend\n",  # no such tile, ambiguous
        "position\n  player A\n",  # no end
        '[Rules "/etc/passwd"]\n\nposition\n  player A\n  player B\nend\n',  # a file as profile
        '[Modules "nosuch, wesir bad=option"]\n\nposition\n  player A\n  player B\nend\n',
        '[Notation "2"]\n\nposition\n  player A\nend\n',
        "position\n" + "".join(f"  player P{i}\n" for i in range(40)) + "end\n",
        "position\n  player A\n    alhambra "
        + " ".join(
            f"T13@{x},{y}" for x in range(-20, 20) for y in range(-20, 20) if (x, y) != (0, 0)
        )
        + "\nend\n",
        "1. Anna: take Gu3\n",  # a record, not a position
        "\u202e\u200b" * 1000,
        "",
    ],
)
def test_hostile_positions_get_an_answer_not_a_traceback(srv: Server, text: str) -> None:
    started = time.monotonic()
    status, answer = _post(srv, "/api/score", {"text": text[: api.MAX_TEXT]})
    assert status in (200, 400, 413), answer
    if status == 200:
        assert answer["ok"] in (True, False)
        if not answer["ok"]:
            assert answer["syntax_errors"]
    else:
        assert answer["error"] and answer["error_en"]
    assert time.monotonic() - started < 60  # a generous bound, not a timing assertion


def test_a_text_too_long_is_refused(srv: Server) -> None:
    status, answer = _post(srv, "/api/score", {"text": "#" * (api.MAX_TEXT + 1)})
    assert status == 413 and str(api.MAX_TEXT) in answer["error"]
    status, answer = _post(srv, "/api/score", {"text": "#" * (api.MAX_TEXT + 1), "lang": "de"})
    assert status == 413 and "zu lang" in answer["error"]


@pytest.mark.parametrize(
    "data",
    [
        {"text": SIX, "player": "Anna", "at": "0,0"},
        {"text": SIX, "player": "Anna", "at": "1;2"},
        {"text": SIX, "player": "Anna", "at": "100,0"},
        {"text": SIX, "player": "Nobody", "at": "1,2"},
        {"text": SIX, "player": ["Anna"], "at": "1,2"},
        {"text": "position\n  player A\n    alhambra @@\nend\n", "player": "A", "at": "1,0"},
    ],
)
def test_bad_fit_requests(srv: Server, data: dict[str, Any]) -> None:
    status, answer = _post(srv, "/api/fit", data)
    assert status == 400 and answer["error"]


def test_unknown_addresses_and_hosts(srv: Server) -> None:
    status, _headers, raw = _request(srv, "GET", "/etc/passwd")
    assert status == 404 and json.loads(raw)["error"]
    status, _h, raw = _request(
        srv, "POST", "/api/nothing", b"{}", {"Content-Type": "application/json"}
    )
    assert status == 404
    # a page of another site reaching the port through its own DNS name (rebinding)
    status, _h, raw = _request(srv, "GET", "/", headers={"Host": "evil.example:80"})
    assert status == 403
    status, _h, raw = _request(
        srv,
        "POST",
        "/api/score",
        b'{"text": ""}',
        {"Host": "evil.example", "Content-Type": "application/json"},
    )
    assert status == 403


def test_a_bug_is_a_json_error_not_a_traceback(
    srv: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(data: dict[str, Any]) -> dict[str, Any]:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(api, "score_answer", broken)
    status, answer = _post(srv, "/api/score", {"text": SIX, "lang": "de"})
    assert status == 500
    assert "ZeroDivisionError" in answer["error"] and "interner Fehler" in answer["error"]


def test_work_is_bounded_in_time(srv: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(data: dict[str, Any]) -> dict[str, Any]:
        time.sleep(1.0)
        return {}

    with pytest.raises(TooLong):
        run_limited(slow, {}, 0.1)
    time.sleep(1.2)  # the worker ends and frees the engine
    monkeypatch.setattr(api, "score_answer", slow)
    monkeypatch.setattr(srv, "work_seconds", 0.1)
    status, answer = _post(srv, "/api/score", {"text": SIX})
    assert status == 503 and "0.1 s" in answer["error"]
    time.sleep(1.2)
    monkeypatch.undo()
    status, answer = _post(srv, "/api/score", {"text": SIX})
    assert status == 200


# ------------------------------------------------------------------------ binding


def test_binds_to_localhost_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_forever(self: Server, poll_interval: float = 0.5) -> None:
        seen["address"] = self.server_address
        raise KeyboardInterrupt

    monkeypatch.setattr(Server, "serve_forever", fake_forever)
    code, out, err = run("serve", "--port", "0")
    assert code == 0
    assert seen["address"][0] == "127.0.0.1"
    assert out.startswith("Scoring at the table: http://127.0.0.1:")
    assert "WARNING" not in err


@pytest.mark.parametrize(("lang", "word"), [("en", "WARNING"), ("de", "WARNUNG")])
def test_serving_the_network_warns(monkeypatch: pytest.MonkeyPatch, lang: str, word: str) -> None:
    seen: dict[str, Any] = {}

    def fake_forever(self: Server, poll_interval: float = 0.5) -> None:
        seen["hosts"] = self.allowed_hosts
        raise KeyboardInterrupt

    monkeypatch.setattr(Server, "serve_forever", fake_forever)
    code, _out, err = run("serve", "--port", "0", "--host", "0.0.0.0", "--lang", lang)
    assert code == 0 and word in err
    assert seen["hosts"] == frozenset()  # phones reach it by the machine's own address


def test_a_port_in_use_is_a_clear_error() -> None:
    with running_server() as server:
        port = server.server_address[1]
        code, _out, err = run("serve", "--port", str(port))
    assert code == 3 and f"127.0.0.1:{port}" in err and "Traceback" not in err


def test_loopback_names() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert not is_loopback("example.org")


_MODULE_RESERVE = "reserve A4nes C7ne sq:Gn md:5n bz:GuPSAs mg:P9n"


def _with_module_pieces() -> str:
    """The plaetze final position with medina, bazare and magisch enabled too and a square, a
    medina, a bazaar and a magic building in Dana's reserve."""
    text = (GOLDEN / "module-plaetze-final.alh").read_text("utf-8")
    text = text.replace('[Modules "plaetze"]', '[Modules "plaetze, medina, bazare, magisch"]')
    return text.replace("reserve A4nes C7ne", _MODULE_RESERVE)


def test_the_module_pieces_that_fit_are_what_score_then_finds(srv: Server) -> None:
    """Issue 33: the tap offers the modules' pieces at hand. Each listed piece's answer is the
    engine's: laid at that cell, ``score`` of the position reports exactly the problems the
    fit answer gave for it at that cell (none when it fits).

    The cells: those of -5..4 x -5..4 next to her alhambra (where the answers vary) and two
    cells one step further, where every piece is refused as not adjacent; the 19 other cells of
    that ring and the 40 further away answer as those two do (PLACE-ADJACENT for every
    piece)."""
    text = _with_module_pieces()
    _status, scored = _post(srv, "/api/score", {"text": text})
    assert scored["ok"] and not scored["findings"]
    dana = scored["model"]["players"][3]["cells"]
    built = {(0, 0)}
    for cell in dana:
        x, y = cell.split(",")
        built.add((int(x), int(y)))

    def beside(cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
        return {(x + dx, y + dy) for x, y in cells for dx, dy in steps}

    def inside(cells: set[tuple[int, int]]) -> list[str]:
        return sorted(f"{x},{y}" for x, y in cells if -5 <= x < 5 and -5 <= y < 5)

    first = beside(built) - built
    further = inside(beside(first) - first - built)
    assert len(inside(first)) == 22 and len(further) == 21  # of the square's 83 free cells
    # of the second ring (its 21 cells answer alike): -2,-4, where a laid piece runs the outer
    # wall's code (geometry/walls.py) as at four other cells, and 4,2, where it does not (the
    # lines of the 43 cells: bench/README.md, issue 34, nineteenth step)
    assert "-2,-4" in further and "4,2" in further
    ring = [*inside(first), "-2,-4", "4,2"]
    fitting: dict[str, int] = {}
    for at in ring:
        status, answer = _post(srv, "/api/fit", {"text": text, "player": "Dana", "at": at})
        assert status == 200
        assert len(answer["tiles"]) == 54
        # a magic building may be turned (E6): each of its four orientations
        magic = ["mg:P9n", "mg:P9e", "mg:P9s", "mg:P9w"]
        assert [p["code"] for p in answer["pieces"]] == ["sq:Gn", "md:5n", "bz:GuPSAs", *magic]
        for p in answer["pieces"]:
            assert p["lies"] == "reserve"
            assert p["fits"] == (not p["problems"])
            assert p["held"] == (p["code"] if p["code"] not in magic else "mg:P9n")
            laid = text.replace(_MODULE_RESERVE, _MODULE_RESERVE.replace(" " + p["held"], ""))
            laid = laid.replace("alhambra C9s@-1,3", f"alhambra {p['code']}@{at} C9s@-1,3")
            _status, check = _post(srv, "/api/score", {"text": laid})
            found = {f["code"] for f in check["findings"] if at in f["cells"]}
            assert found == {q["code"] for q in p["problems"]}, (at, p["code"])
            fitting[p["code"]] = fitting.get(p["code"], 0) + p["fits"]
    assert all(fitting.values()), fitting  # each fits somewhere, and not everywhere
    assert all(n < len(ring) for n in fitting.values())


def test_module_pieces_have_words_and_pictures(srv: Server) -> None:
    text = _with_module_pieces()
    _status, en = _post(srv, "/api/fit", {"text": text, "player": "Dana", "at": "0,4"})
    _status, de = _post(
        srv, "/api/fit", {"text": text, "player": "Dana", "at": "0,4", "lang": "de"}
    )
    square = en["pieces"][0]
    assert square["name_en"] == "square, garden, walls N"
    assert square["name_de"] == "Platz, Garten, Mauern N"
    assert de["pieces"][1]["name_de"] == "Medina 5, Mauern N"
    assert en["pieces"][2]["name_en"] == "bazaar florin, walls S"  # no printed price
    assert all(p["picture"].startswith("<svg") for p in en["pieces"])
    assert 'data-at="0,4"' in square["picture"]
    # the piece already on a tapped cell is offered again, as the cell's
    _status, cell = _post(srv, "/api/fit", {"text": text, "player": "Dana", "at": "0,1"})
    assert cell["pieces"][0]["code"] == "sq:Tw" and cell["pieces"][0]["lies"] == "cell"
    assert cell["pieces"][0]["fits"]
    # without modules there are no pieces
    _status, plain = _post(srv, "/api/fit", {"text": SIX, "player": "Anna", "at": "-1,1"})
    assert plain["pieces"] == []


def test_face_up_squares_are_offered(srv: Server) -> None:
    """A square on top of its stack (the position's ``squares`` line) is a piece the player
    could take and build now (the module's action, as ``legal`` tries it): it is listed as on
    offer, and its answer is what ``score`` finds when it is laid there."""
    text = SIX.replace(
        "\nposition\n", '\n[Modules "plaetze"]\n\nposition\n  squares sq:Gs sq:Aw\n', 1
    )
    assert '[Modules "plaetze"]' in text
    for at in ("-1,1", "1,1", "-2,0", "2,0", "0,-2"):
        _status, answer = _post(srv, "/api/fit", {"text": text, "player": "Anna", "at": at})
        assert {(p["code"], p["lies"]) for p in answer["pieces"]} == {
            ("sq:Gs", "offer"),
            ("sq:Aw", "offer"),
        }
        for p in answer["pieces"]:
            laid = text.replace("alhambra P2@0,1 ", f"alhambra {p['code']}@{at} P2@0,1 ", 1)
            assert f"{p['code']}@{at}" in laid
            _status, check = _post(srv, "/api/score", {"text": laid})
            found = {f["code"] for f in check["findings"] if at in f["cells"]}
            assert found == {q["code"] for q in p["problems"]}, (at, p["code"])
