"""Die Gebäude der Macht: the Gebäude der Weisheit (the red die, cards drawn from the money deck,
one kept, a scoring card played or put back, the rest put back on the deck).
Rulebook: rulebook-bigbox-de-2019.txt § Mike Elliott: Die Gebäude der Macht, "Gebäude der
Weisheit" L3621-3633. Platform: the engine's public ``draw_money`` (each card named is checked
against the deck, the kept card counted in ``state.money_draws``), ``scoring_card_drawn`` (the
base path of a scoring card turned up, as the Bettler's) and ``state.deck_known`` (the cards put
back lie in the deck again).
"""

from __future__ import annotations

import re

from conftest import messages
from test_module_machtgebaeude import MOD, found, position, reasons

from referee.engine import GameReport, check_game
from referee.notation import format_game, parse_text
from referee.profiles import load_profile
from referee.simulate.simulator import simulate_text

# Anna buys a Gebäude der Weisheit (the base C8's twin) for De7 De2 (exact), the market refilled
MARKET = "Gu:G11 Di:C5 De:gm:ws_C8 Du:T12"
BUY = "1. Anna: buy De gm:ws_C8 pay De7 De2, reserve gm:ws_C8\n* market De:C10\n"
HAND = "Di9 Gu8 Du5 De7 De2"


def weisheit(rest: str) -> GameReport:
    return position(BUY + rest, market=MARKET, hand=HAND)


def hand(rep: GameReport, name: str = "Anna") -> dict[str, int]:
    assert rep.state is not None
    player = next(p for p in rep.state.players if p.name == name)
    return {str(c): n for c, n in player.hand.items()}


def test_the_red_die_draws_cards_one_is_kept_the_rest_go_back_on_the_deck() -> None:
    # "wirft der Spieler den roten Würfel und zieht so viele Karten vom Stapel, wie er Augen
    # gewürfelt hat. Eine davon wählt er aus und behält sie. Die übrigen Karten darf er
    # beliebig sortiert auf den Stapel zurücklegen." (L3631-3633, L3623-3625)
    rep = weisheit("* roll Anna red 3, wisdom Anna keep Di5 back De3 Gu7\n")
    plain = weisheit("")
    assert found(rep) == [], messages(rep)
    assert rep.state is not None and plain.state is not None
    assert hand(rep).get("Di5") == 1 and "De3" not in hand(rep)
    # only the kept card left the deck; the two put back lie in it (known) again
    assert rep.state.money_draws == plain.state.money_draws + 1
    assert rep.state.deck_size == plain.state.deck_size - 1
    known = {str(c): n for c, n in rep.state.deck_known.items()}
    assert known.get("De3") == 1 and known.get("Gu7") == 1


def test_the_number_of_cards_drawn_is_the_roll() -> None:
    rep = weisheit("* roll Anna red 3, wisdom Anna keep Di5 back De3\n")
    assert reasons(rep) == ["MACHT-WISDOM/count"]
    assert "3" in messages(rep)[0]
    assert found(weisheit("* roll Anna red 1, wisdom Anna keep Di5\n")) == []


def test_a_card_drawn_must_be_in_the_deck() -> None:
    # the engine's own draw check (3 cards of each value): Anna holds a De2, the display shows
    # one, so the deck has one De2 left, not three
    rep = weisheit("* roll Anna red 3, wisdom Anna keep De2 back De2 De2\n")
    assert rep.violations, "three more De2 than the deck holds"
    assert all(v.code != "MACHT-WISDOM" for v in rep.violations)


def test_the_wisdom_line_belongs_to_a_weisheit_bought_and_its_red_roll() -> None:
    # "Jedes Mal, wenn ein Spieler eines dieser Plättchen erworben hat, kann er am Ende seines
    # Zuges einmalig die ... Sonderfunktion nutzen" (L3653-3656)
    assert reasons(weisheit("* wisdom Anna keep Di5 back De3 Gu7\n")) == ["MACHT-WISDOM/no-roll"]
    twice = "* roll Anna red 1, wisdom Anna keep Di5\n* roll Anna red 1\n"
    assert reasons(weisheit(twice)) == ["MACHT-ROLL/no-purchase"]
    late = "2. Ben: take Du8\n* display Gu5\n* roll Anna red 2\n"
    assert reasons(weisheit(late)) == ["MACHT-ROLL/no-purchase"]
    # a Baukunst line does not use a Weisheit's roll
    assert reasons(weisheit("* roll Anna red 1, hide Anna Gu C5\n")) == ["MACHT-HIDE/no-roll"]


def test_a_malformed_wisdom_line() -> None:
    for bad in ("wisdom Anna Di5", "wisdom Anna keep W1", "wisdom Anna keep Di5 Gu7"):
        rep = weisheit(f"* roll Anna red 1, {bad}\n")
        assert "MACHT-WISDOM/form" in reasons(rep), bad


def test_a_scoring_card_drawn_may_be_played_at_once_without_replacement() -> None:
    # "Falls er eine Wertungskarte zieht, darf er diese sofort ausspielen (ohne Ersatz zu
    # bekommen) und damit die Wertung auslösen" (L3626-3628): it counts among the cards drawn,
    # the scoring is due before the next turn (the base path)
    rep = weisheit("* roll Anna red 3, wisdom Anna keep Di5 play W1 back De3\nscoring 1\n")
    assert found(rep) == [], messages(rep)
    assert rep.state is not None and 1 in rep.state.scoring_seen
    due = weisheit("* roll Anna red 3, wisdom Anna keep Di5 play W1 back De3\n2. Ben: take Du8\n")
    assert "SCORING-MISSING" in [v.code for v in due.violations]
    short = weisheit("* roll Anna red 3, wisdom Anna keep Di5 play W1 back De3 Gu7\n")
    assert "MACHT-WISDOM/count" in reasons(short)


def test_a_scoring_card_may_go_back_on_the_deck_with_the_others() -> None:
    # "... oder mit den übrigen Karten verdeckt auf den Stapel zurücklegen" (L3628-3629): no
    # scoring now; it turns up later in a refill as usual
    rep = weisheit("* roll Anna red 3, wisdom Anna keep Di5 back W1 De3\n")
    assert found(rep) == [], messages(rep)
    assert rep.state is not None and rep.state.scoring_pending == []
    assert 1 not in rep.state.scoring_seen
    # a scoring card that turned up already cannot be drawn again
    seen = weisheit("* roll Anna red 3, wisdom Anna keep Di5 play W1 back W1\nscoring 1\n")
    assert reasons(seen) == ["MACHT-WISDOM/scoring-seen"]
    # the card put back turns up in a later refill and is scored as usual (with the other card
    # put back: both lie on top of the deck, tests/test_module_machtgebaeude_deck.py)
    later = "2. Ben: take Du9\n* display W1 De3\nscoring 1\n"
    rep = weisheit("* roll Anna red 3, wisdom Anna keep Di5 back W1 De3\n" + later)
    assert found(rep) == [], messages(rep)
    assert rep.state is not None and 1 in rep.state.scoring_seen


def test_simulated_games_use_weisheit_and_check_clean() -> None:
    # the simulator draws from the top of its deck, keeps a money card and puts the rest (a
    # scoring card among them: seed 2) back on top; the next refills turn them up in order
    lines: list[str] = []
    for seed in range(3):
        text = simulate_text(3, seed, load_profile("queen-2003"), f"ws {seed}", (MOD,))
        game = parse_text(text, "sim.alh")[0]
        rep = check_game(game)
        assert rep.valid and rep.complete and rep.violations == [], messages(rep)
        assert format_game(game) == text
        lines += [line for line in text.splitlines() if ", wisdom " in line]
    assert len(lines) >= 3
    assert any(" W1" in line or " W2" in line for line in lines)


def test_a_scoring_card_played_in_a_whole_game_keeps_its_pile_check_quiet() -> None:
    # seed 2: Anna's Weisheit draws W1 and the simulator puts it back; written as played instead
    # ("sofort ausspielen ... und damit die Wertung auslösen", L3626-3628), the scoring comes
    # right after the line, the later refill turns up no W1, and the pile check (setup's 90
    # cards) counts the cards drawn before it somewhere among the cards of the draw
    text = simulate_text(3, 2, load_profile("queen-2003"), "ws 2", (MOD,))
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if ", wisdom " in line and " W1" in line)
    assert lines[i].endswith("wisdom Anna keep De9 back Di6 W1 Gu3 Gu7 Gu2")
    j = next(k for k in range(i + 1, len(lines)) if "W1" in lines[k])
    assert lines[j] == "* display W1 Gu3"
    lines[j] = "* display Gu3"
    assert lines[j + 1].startswith("scoring 1:")  # the scoring it caused: now after the draw
    del lines[j + 1]
    lines[i] = lines[i].replace("back Di6 W1 Gu3", "play W1 back Di6 Gu3")
    lines.insert(i + 1, "scoring 1")
    # the points claimed belong to the other game: claims and result dropped
    played = "\n".join(
        re.sub(r"^(scoring \d):.*$", r"\1", line)
        for line in lines
        if not line.startswith("[Result")
    )
    rep = check_game(parse_text(played + "\n", "played.alh")[0])
    assert rep.state is not None and rep.state.setup_after > 0
    assert [v.code for v in rep.violations] == [], messages(rep)


def test_a_position_after_weisheit_differs_only_by_the_card_kept() -> None:
    # the position block shows the kept card in the hand, and the cards put back on top of the
    # deck (`ontop`, reading (h): tests/test_module_machtgebaeude_deck_top.py)
    from referee.engine.position_text import position_text

    plain = weisheit("")
    used = weisheit("* roll Anna red 3, wisdom Anna keep Di5 back De3 Gu7\n")
    assert plain.state is not None and used.state is not None
    before = position_text(plain.state).splitlines()
    after = position_text(used.state).splitlines()
    assert "  ontop Anna 2 De3 Gu7" in after
    after.remove("  ontop Anna 2 De3 Gu7")
    # before the roll the Weisheit bought is still due (`dice due`, sixteenth step)
    (due,) = [x for x in before if x.startswith("    dice due ws_")]
    before.remove(due)
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [("    hand Gu8 Di9 Du5", "    hand Gu8 Di5 Di9 Du5")]
