"""Rules between the wave-E modules and Die Baustellen, tested with both modules enabled
(rulebook-bigbox-de-2019.txt): camps are never building sites (Die Baustellen, "Anmerkungen",
L2563-2564), camps are never attached to watchtowers (Die Wachtürme, "Anmerkungen",
L2448-2449), and a camp stated in a position block leans on a wall like a placed one (Die
Feldlager, L1150-1152)."""

from __future__ import annotations

from referee.engine import GameReport
from tests.module_support import check_position

BASE = "C9w@0,1 P8-@1,1 S9-@2,1 P7e@3,1 C9s@1,0"
MARKET = "Gu:fl:6bSaS Di:fl:5bEaE De:fl:4bWaW Du:C7ne"


def position(
    body: str, modules: str, anna: str = BASE, hand: str = "Gu6 Di5 De4 Du9"
) -> GameReport:
    return check_position(
        body, modules=modules, market=MARKET, players={"Anna": [f"hand {hand}", f"alhambra {anna}"]}
    )


def found(rep: GameReport) -> list[str]:
    skip = ("TILE-SUPPLY", "UNVERIFIED-SITE-BACK")
    return [v.code for v in rep.violations if v.code not in skip]


def test_a_camp_is_never_a_building_site() -> None:
    # "Feldlager [siehe Seite 15] und Bazare [siehe Seite 23] können nicht als Baustellen
    # eingerichtet werden"
    rep = position(
        "1. Anna: buy De fl:4bWaW pay De4 bs:De, place fl:4bWaW@4,1\n",
        "feldlager, baustellen",
    )
    assert "SITE-PIECE" in found(rep), [v.message() for v in rep.violations]
    msg = next(v.message() for v in rep.violations if v.code == "SITE-PIECE")
    assert "fl:4bWaW" in msg and "L2563" in msg
    # the same camp bought without a site is fine
    rep = position(
        "1. Anna: buy De fl:4bWaW pay De4, place fl:4bWaW@4,1\n", "feldlager, baustellen"
    )
    assert found(rep) == [], [v.message() for v in rep.violations]
    # a building tile may be a site
    rep = position("1. Anna: buy Du C7ne pay Du9 bs:Du, reserve C7ne\n", "feldlager, baustellen")
    assert "SITE-PIECE" not in found(rep)


def test_a_camp_is_never_attached_to_a_watchtower() -> None:
    # "Feldlager können nicht an Wachturmplättchen angelegt werden": the pavilion watchtower
    # on 1,2 (legs south and west, secured by the pavilion on 1,1); a camp on 0,2 would touch
    # its west leg
    anna = BASE + " wt:Psw@1,2"
    rep = position(
        "1. Anna: buy Gu fl:6bSaS pay Gu6, place fl:6bSaS@0,2\n",
        "feldlager, wachtuerme",
        anna=anna,
    )
    codes = found(rep)
    assert "WACHT-CAMP" in codes, [v.message() for v in rep.violations]
    msg = next(v.message() for v in rep.violations if v.code == "WACHT-CAMP")
    assert "1,2" in msg and "L2448" in msg
    # the side rule's finding for the watchtower's cell is not repeated
    assert not any(
        v.code in ("PLACE-SIDE", "PLACE-CLOSED") and "1,2" in v.message() for v in rep.violations
    )


def test_a_watchtower_is_never_built_beside_a_camp() -> None:
    anna = BASE + " fl:4bWaW@4,1"
    rep = position(
        "1. Anna: buy Du C7ne pay Du9, reserve C7ne\n",
        "feldlager, wachtuerme",
        anna=anna,
    )
    assert found(rep) == [], [v.message() for v in rep.violations]
    # a pavilion watchtower on 4,2: its south leg would touch the camp on 4,1
    rep = position(
        "1. Anna: buy De P7e pay De4 De8 wt:P, place wt:Psw@4,2, reserve P7e\n",
        "feldlager, wachtuerme",
        anna=anna,
        hand="Gu6 Di5 De4 De8 Du9",
    )
    assert "WACHT-CAMP" in found(rep), [v.message() for v in rep.violations]


def test_a_camp_in_a_position_leans_on_a_wall() -> None:
    # "Feldlager dürfen nur mit Bastion(en) an Stadtmauer(n) eines Gebäudeplättchens angelegt
    # werden": the camp on 4,1 leans on the pavilion's east wall; the one on 5,1 on nothing
    rep = position("", "feldlager", anna=BASE + " fl:4bWaW@4,1")
    assert found(rep) == [], [v.message() for v in rep.violations]
    rep = position("", "feldlager", anna=BASE + " fl:4bWaW@4,1 fl:6bSaS@5,1")
    assert found(rep) == ["POSITION-INVALID"]
    msg = rep.violations[-1].message()
    assert "FELDLAGER-BASTION" in msg and "5,1" in msg
    de = rep.violations[-1].message("de")
    assert "Feldlager" in de
