"""Rule profiles: the bundled ones load and carry their sources; user files are untrusted input.

Every error is a ProfileError naming file, line, column and key (never a traceback, never
silently ignored). Rule texts: ../shared/rules/ (sections cited in the bundled YAML files).
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.profiles import (
    DEFAULT_PROFILE,
    PARAMETERS,
    ProfileError,
    RuleProfile,
    list_profiles,
    load_profile,
    parse_profile,
)
from referee.profiles.params import _DOCS, META_FIELDS

BUNDLED = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga", "waechter"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path | str) -> ProfileError:
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    return info.value


# ------------------------------------------------------------------------------ bundled


def test_bundled_profiles_are_listed_default_first() -> None:
    assert list_profiles() == BUNDLED


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_profile_loads_and_backs_every_parameter_with_a_source(name: str) -> None:
    profile = load_profile(name)
    assert profile.name == name
    assert profile.origin == "bundled"
    assert set(profile.sources) == set(PARAMETERS)
    for param, source in profile.sources.items():
        # a file of ../shared/rules (or the issue, for the online implementation) and a section
        assert ".txt [" in source or source.startswith("issue 8"), (param, source)
        assert "„" in source, (param, source)  # quotes the text


def test_the_default_profile_is_the_2003_rulebook() -> None:
    assert load_profile(None) == DEFAULT_PROFILE
    assert load_profile("") == DEFAULT_PROFILE
    assert load_profile("queen-2003") == RuleProfile()


def test_bundled_sources_cite_files_that_exist() -> None:
    rules = Path(__file__).resolve().parents[2] / "shared" / "rules"
    if not rules.is_dir():
        pytest.skip("rule texts not next to the checkout")
    for name in BUNDLED:
        for source in load_profile(name).sources.values():
            if ".txt [" in source:
                assert (rules / source.split(" [")[0].split()[-1]).is_file(), source


def test_editions_differ_where_the_texts_differ() -> None:
    queen, bigbox = load_profile("queen-2003"), load_profile("queen-bigbox-2019")
    hu, bga = load_profile("piatnik-hu"), load_profile("bga")
    # rulebook-bigbox-de-2019.txt [Spielvorbereitung]: tiles "in den Plättchenturm"
    assert bigbox.tile_supply == "tower" and queen.tile_supply == "bag"
    assert {k: v for k, v in bigbox.parameters().items() if k != "tile_supply"} == {
        k: v for k, v in queen.parameters().items() if k != "tile_supply"
    }
    # rulebook-base-hu-piatnik.txt [A játék előkészítése] and [Játékvariáció két játékos részére]
    assert hu.scoring_card_placement == "top"
    assert hu.start_tiebreak == "cards-youngest"
    assert hu.deal_first == "youngest"
    assert hu.dirk_second_draw == 2
    assert queen.dirk_second_draw is None  # a third, rounded down
    assert hu.two_player_money_copies == queen.two_player_money_copies == 2  # 72 cards
    assert (bga.wall_run, bga.game_end) == ("simple-path", "bag-empty")
    assert (queen.wall_run, queen.game_end) == ("trail", "market-incomplete")
    # house rules are off in every bundled profile
    for p in (queen, bigbox, hu, bga):
        assert (p.reserve_limit, p.gifts, p.overpay_superfluous, p.wall_points) == (
            None,
            "dirk-only",
            "allowed",
            "edge",
        )


def test_every_parameter_is_documented() -> None:
    assert set(_DOCS) == set(PARAMETERS)
    assert not META_FIELDS & set(PARAMETERS)
    docs = (Path(__file__).resolve().parents[1] / "docs" / "profiles.md").read_text("utf-8")
    for name, spec in PARAMETERS.items():
        assert f"`{name}`" in docs, name
        for choice in spec.choices:
            assert f"`{choice}`" in docs, (name, choice)


# --------------------------------------------------------------------------- user files


def test_a_user_profile_extends_a_bundled_one(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "club.yaml",
        "extends: piatnik-hu\nreserve_limit: 4\ngifts: any-player\n"
        "sources:\n  reserve_limit: review-base-de.txt [3. Die eigene Alhambra umbauen]\n",
    )
    p = load_profile(path)
    assert p.name == "club"
    assert p.extends == "piatnik-hu"
    assert p.origin == str(path)
    assert (p.reserve_limit, p.gifts) == (4, "any-player")
    assert (p.scoring_card_placement, p.dirk_second_draw) == ("top", 2)  # inherited
    assert p.sources["reserve_limit"] == "review-base-de.txt [3. Die eigene Alhambra umbauen]"
    assert p.sources["gifts"] == f"{path}:3 (set in this profile)"
    assert p.sources["dirk_second_draw"].startswith("rulebook-base-hu-piatnik.txt")


def test_extends_a_file_relative_to_the_profile(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path, "base.yaml", "extends: bga\nreserve_limit: 3\n")
    path = write(
        tmp_path / "sub", "top.yaml", "name: top\nextends: ../base.yaml\ngifts: any-player\n"
    )
    p = load_profile(path)
    assert (p.name, p.reserve_limit, p.gifts, p.wall_run) == ("top", 3, "any-player", "simple-path")


def test_a_profile_without_extends_starts_from_the_defaults(tmp_path: Path) -> None:
    p = load_profile(
        write(tmp_path, "mini.yaml", "name: mini\ndescription: Just one\nreserve_limit: 0\n")
    )
    assert (p.name, p.description, p.reserve_limit) == ("mini", "Just one", 0)
    assert p.parameters() == {**DEFAULT_PROFILE.parameters(), "reserve_limit": 0}


def test_null_means_the_rulebook_value_where_allowed(tmp_path: Path) -> None:
    path = write(tmp_path, "p.yaml", "extends: piatnik-hu\ndirk_second_draw: null\n")
    assert load_profile(path).dirk_second_draw is None


def test_integers_are_accepted_for_numbers(tmp_path: Path) -> None:
    assert load_profile(write(tmp_path, "p.yaml", "pile_tolerance: 1\n")).pile_tolerance == 1.0


def test_parse_profile_reads_text() -> None:
    p = parse_profile("extends: bga\noverpay_superfluous: warn\n", "inline.yaml")
    assert (p.name, p.overpay_superfluous, p.game_end) == ("inline", "warn", "bag-empty")


# ------------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("text", "line", "column", "key", "words"),
    [
        ("reserve_limt: 4\n", 1, 1, "reserve_limt", "did you mean reserve_limit"),
        ("gifts: any-player\nreserve_limit: -1\n", 2, 16, "reserve_limit", "out of range"),
        ("reserve_limit: 55\n", 1, 16, "reserve_limit", "out of range"),
        ("reserve_limit: four\n", 1, 16, "reserve_limit", "'four' is not a whole number"),
        ("reserve_limit: 2.5\n", 1, 16, "reserve_limit", "2.5 is not a whole number"),
        ("reserve_limit: yes\n", 1, 16, "reserve_limit", "boolean true"),
        ("gifts: anyone\n", 1, 8, "gifts", "expected dirk-only | any-player"),
        ("gifts: null\n", 1, 8, "gifts", "null is not allowed"),
        ("overpay_superfluous: [warn]\n", 1, 22, "overpay_superfluous", "got a list"),
        ("wall_run: {a: 1}\n", 1, 11, "wall_run", "got a mapping"),
        ("wall_run: !!python/name:os.system x\n", 1, 11, "wall_run", "tag"),
        ("game_end: !custom x\n", 1, 11, "game_end", "tag"),
        ("pile_tolerance: .nan\n", 1, 17, "pile_tolerance", "is not a number"),
        ("pile_tolerance: .inf\n", 1, 17, "pile_tolerance", "is not a number"),
        ("pile_tolerance: 1.5\n", 1, 17, "pile_tolerance", "out of range"),
        ("two_player_money_copies: 0\n", 1, 26, "two_player_money_copies", "out of range"),
        ("dirk_second_draw: -2\n", 1, 19, "dirk_second_draw", "out of range"),
        ("gifts: dirk-only\ngifts: any-player\n", 2, 1, "gifts", "given twice"),
        ("sources:\n  bogus: x\n", 2, 3, "sources.bogus", "not a parameter"),
        ("sources: [a]\n", 1, 10, "sources", "expected a mapping"),
        ("sources:\n  gifts: 3\n", 2, 10, "sources.gifts", "non-empty text"),
        ("name: 'a b'\n", 1, 7, "name", "letters, digits"),
        ("description: ''\n", 1, 14, "description", "non-empty text"),
        ("extends: no-such-profile\n", 1, 10, "extends", "cannot extend"),
        ("extends: 3\n", 1, 10, "extends", "non-empty text"),
        ("? [a, b]\n: 1\n", 1, 3, None, "keys must be plain names"),
        ("<<: {gifts: any-player}\n", 1, 1, None, "keys must be plain names"),
    ],
)
def test_each_error_names_file_line_column_and_key(
    tmp_path: Path, text: str, line: int, column: int, key: str | None, words: str
) -> None:
    path = write(tmp_path, "user.yaml", text)
    err = error_of(path)
    assert (err.file, err.line, err.column, err.key) == (str(path), line, column, key)
    assert words in str(err)
    first = str(err).splitlines()[0]
    assert first.startswith(f"{path}:{line}:{column}: ")
    if key:
        assert f": {key}: " in first


def test_all_problems_of_a_file_are_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, "u.yaml", "gifts: x\nreserve_limit: -1\nfoo: 1\nwall_run: trail\n")
    err = error_of(path)
    assert [(p.line, p.key) for p in err.problems] == [
        (1, "gifts"),
        (2, "reserve_limit"),
        (3, "foo"),
    ]
    assert len(str(err).splitlines()) == 3


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 0, "empty"),
        ("# only a comment\n", 0, "empty"),
        ("- 1\n- 2\n", 1, "expected a mapping"),
        ("just text\n", 1, "expected a mapping"),
        ("gifts: [\n", 2, "not valid YAML"),
        ("a: 1\n---\nb: 2\n", 2, "not valid YAML"),
        ("gifts: 'open\n", 2, "not valid YAML"),
        ("a: *nowhere\n", 1, "not valid YAML"),
    ],
)
def test_file_level_errors(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = write(tmp_path, "f.yaml", text)
    err = error_of(path)
    assert err.file == str(path)
    assert err.line == line
    assert words in str(err)


def test_unreadable_files(tmp_path: Path) -> None:
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"gifts: dirk-only\n\xff\xfe\n")
    err = error_of(binary)
    assert err.line == 2 and "not UTF-8" in str(err)
    assert "not a file" in str(error_of(tmp_path))
    big = tmp_path / "big.yaml"
    big.write_text("# x\n" * 100_000, encoding="utf-8")
    assert "larger than" in str(error_of(big))


def test_unknown_names_suggest_the_bundled_ones() -> None:
    err = error_of("queen2003")
    assert "did you mean queen-2003" in str(err)
    assert "bga" in str(err)


def test_extends_cycles_are_reported(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    err = error_of(tmp_path / "a.yaml")
    assert "cycle" in str(err)
    assert (err.line, err.key) == (1, "extends")
    write(tmp_path, "self.yaml", "extends: self.yaml\n")
    assert "cycle" in str(error_of(tmp_path / "self.yaml"))


def test_errors_in_an_extended_file_are_reported_with_their_own_position(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "gifts: any-player\nreserve_limit: x\n")
    path = write(tmp_path, "top.yaml", "extends: base.yaml\n")
    problems = error_of(path).problems
    assert (problems[0].file, problems[0].line, problems[0].key) == (str(path), 1, "extends")
    assert (problems[1].line, problems[1].key) == (2, "reserve_limit")
    assert problems[1].file.endswith("base.yaml")


def test_no_object_is_ever_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"gifts: !!python/object/apply:os.system ['touch {marker}']\n"
    err = error_of(write(tmp_path, "evil.yaml", text))
    assert err.key == "gifts"
    assert not marker.exists()


def test_aliases_are_not_expanded_into_huge_values(tmp_path: Path) -> None:
    text = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    err = error_of(write(tmp_path, "lol.yaml", text))
    assert err.key == "a" and "unknown key" in str(err)


# --------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.printable + "„“äöü€\u00a0", max_size=200))
def test_any_text_gives_a_profile_or_a_profile_error(text: str) -> None:
    try:
        profile = parse_profile(text, "fuzz.yaml")
    except ProfileError as err:
        assert err.problems
        assert all(p.file for p in err.problems)
    else:
        for name, spec in PARAMETERS.items():
            assert spec.problem(getattr(profile, name)) is None


def _valid_value(name: str) -> st.SearchStrategy[object]:
    spec = PARAMETERS[name]
    if spec.kind == "choice":
        base: st.SearchStrategy[object] = st.sampled_from(spec.choices)
    elif spec.kind == "int":
        base = st.integers(int(spec.minimum or 0), int(spec.maximum or 100))
    else:
        base = st.floats(spec.minimum or 0.0, spec.maximum or 1.0)
    return st.one_of(base, st.none()) if spec.nullable else base


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(BUNDLED),
    st.lists(st.sampled_from(list(PARAMETERS)), unique=True).flatmap(
        lambda names: st.fixed_dictionaries({n: _valid_value(n) for n in names})
    ),
)
def test_every_valid_value_round_trips(base: str, values: dict[str, object]) -> None:
    text = yaml.safe_dump({"extends": base, **values})
    profile = parse_profile(text, "rt.yaml")
    expected = {**load_profile(base).parameters(), **values}
    assert profile.parameters() == expected


def test_the_example_in_the_docs_loads(tmp_path: Path) -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "profiles.md").read_text("utf-8")
    block = docs.split("```yaml\n", 1)[1].split("```", 1)[0]
    p = load_profile(write(tmp_path, "our-club.yaml", block))
    assert (p.name, p.reserve_limit, p.gifts, p.wall_points) == (
        "our-club",
        4,
        "any-player",
        "tile",
    )
    assert p.sources["reserve_limit"].startswith("review-base-de.txt")


def test_names_from_untrusted_text_can_be_limited_to_bundled_profiles(tmp_path: Path) -> None:
    path = write(tmp_path, "club.yaml", "reserve_limit: 4\n")
    assert load_profile(path).reserve_limit == 4
    assert load_profile("piatnik-hu", allow_files=False).name == "piatnik-hu"
    with pytest.raises(ProfileError) as info:
        load_profile(str(path), allow_files=False)
    assert "not a bundled profile" in str(info.value)


def test_long_keys_are_cut_in_messages(tmp_path: Path) -> None:
    err = error_of(write(tmp_path, "k.yaml", "x" * 500 + ": 1\n"))
    assert err.key is not None and len(err.key) == 60 and err.key.endswith("…")
    assert len(str(err)) < 500
