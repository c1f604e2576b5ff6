"""Issue 31: "**Anschließend ... sofort** (Neues Bauland): the plot's building is chosen right
after the purchase, before any other action."

rulebook-bigbox-de-2019.txt § Dirk Henn: Neues Bauland (L2857-2864): "so kann ein Spieler dieses
Grundstück ... kaufen. Anschließend sucht er sofort eines der Baugebäude aus, die unter dem
entsprechenden Zahlenplättchen liegen". The engine names the step owed now
(``referee.engine.legal.owed_actions``); `explain` and `legal` offer only that step right after
the purchase, in both languages.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from click.testing import CliRunner

from referee.cli import cli
from referee.commands import legal
from referee.commands.explain import parse_action
from referee.commands.show import At, load_game, situation_of
from referee.engine import core

EX = Path(__file__).resolve().parent.parent / "examples"
GAME = str(EX / "module-bauland.alh")
# line 113 of the record: "45. Ben: buy Di bl:2_6x pay Di8, plot A, place bl:2_6x_A@2,0";
# under the number tile 2 lie A, A and C ("* plots 2 A A C")
BUY = "Ben: buy Di bl:2_6x pay Di8"


def _explain(text: str, lang: str = "en", fmt: str = "text") -> str:
    res = CliRunner().invoke(
        cli, ["explain", GAME, "--at", "L112", text, "--lang", lang, "--format", fmt]
    )
    return res.output


def test_explain_offers_only_the_owed_choice_after_a_plot_purchase() -> None:
    out = _explain(f"{BUY}, take Gu5")
    alt = out.split("take Gu5:", 1)[1]
    assert "Owed first, before any other action" in alt
    assert "plot A" in alt and "plot C" in alt
    assert "Legal money takes" not in alt  # no other action is open before the choice
    de = _explain(f"{BUY}, take Gu5", "de").split("take Gu5:", 1)[1]
    assert "Zuerst geschuldet, vor jeder anderen Aktion" in de and "plot A" in de
    assert "Erlaubte Geldaufnahmen" not in de and "Geld nehmen:" not in de.split("[", 1)[0]


def test_explain_json_names_the_owed_step_at_the_end_of_the_turn() -> None:
    data = json.loads(_explain(BUY, fmt="json"))
    end = data["steps"][-1]
    assert end["action"] is None or "end" in str(end["action"]).lower()
    assert end["alternatives"]["owed"] == ["plot A", "plot C"]
    assert (
        not json.loads(_explain(f"{BUY}, plot A, place bl:2_6x_A@2,0", fmt="json"))["steps"][-1]
        .get("alternatives", {})
        .get("owed")
    )


def test_the_record_line_is_legal_as_check_says() -> None:
    out = _explain(f"{BUY}, plot A, place bl:2_6x_A@2,0")
    assert out.startswith("Legal:"), out


def test_legal_lists_only_the_owed_step_mid_turn() -> None:
    """`legal` at a moment right after the purchase (the engine's state with the purchase
    applied): the module actions open are the owed choices, nothing else."""
    sit = situation_of(load_game(GAME), At("line", 112))
    state = sit.state.copy()
    ben = state.player_named("Ben")
    core.begin_trial_turn(state, ben.index)
    core.apply_action(state, parse_action(BUY).actions[0])
    acts, _ = legal.module_moves(dataclasses.replace(sit, state=state), "Ben")
    assert acts == ["plot A", "plot C"]
    before, _ = legal.module_moves(sit, "Ben")  # before the purchase: the purchases are open
    assert any(a.startswith("buy ") for a in before)


def test_a_watchtower_is_owed_before_the_turn_ends_not_before_any_other_action() -> None:
    # Die Wachtürme (rulebook-bigbox-de-2019.txt, L2405-2449): a watchtower bought with a
    # building is placed with the turn's placements; other actions stay open until then, so
    # explain does not say "before any other action" (Module.owed_before = "turn-end")
    game = str(EX / "module-wachtuerme.alh")
    res = CliRunner().invoke(
        cli, ["explain", game, "--at", "L66", "Dana: buy Di A8e pay Di7 Di8 wt:A"]
    )
    out = res.output
    assert "Owed before the turn ends" in out and "place wt:Ane@1,-1" in out
    assert "Owed first, before any other action" not in out
    de = (
        CliRunner()
        .invoke(
            cli,
            ["explain", game, "--at", "L66", "Dana: buy Di A8e pay Di7 Di8 wt:A", "--lang", "de"],
        )
        .output
    )
    assert "Vor dem Ende des Zuges geschuldet" in de
    data = json.loads(
        CliRunner()
        .invoke(
            cli,
            [
                "explain",
                game,
                "--at",
                "L66",
                "Dana: buy Di A8e pay Di7 Di8 wt:A",
                "--format",
                "json",
            ],
        )
        .output
    )
    end = data["steps"][-1]["alternatives"]
    assert "place wt:Ane@1,-1" in end["owed_before_turn_end"] and not end.get("owed")
