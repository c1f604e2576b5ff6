"""``check -`` reads standard input, as ``fmt``, ``parse`` and ``score`` do."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_check_reads_standard_input(jobs: str) -> None:
    text = (EXAMPLES / "illegal-take.alh").read_text("utf-8")
    result = CliRunner().invoke(
        cli, ["check", "--jobs", jobs, "-"], input=text, standalone_mode=False
    )
    assert result.return_value == 1  # the exit code main() gives
    assert "<stdin>:14:9 turn 1 Cem: TAKE-SUM" in result.output  # one name for stdin


def test_simulated_games_piped_into_check_are_valid() -> None:
    runner = CliRunner()
    games = runner.invoke(cli, ["simulate", "--players", "3", "--seed", "5", "--games", "2"])
    assert games.exit_code == 0
    result = runner.invoke(
        cli, ["check", "--no-scoring", "-"], input=games.output, standalone_mode=False
    )
    assert result.return_value == 0, result.output
    assert "2 game(s): 2 valid" in result.output
