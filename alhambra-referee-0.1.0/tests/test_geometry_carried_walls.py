"""Walls added to a tile outside the Alhambra (``Alhambra.carry_walls``, E21): "Dabei ist es
egal, ob das Plättchen gerade neu gekauft wurde oder sich in der Alhambra bzw. in der Reserve
befindet" (rulebook-bigbox-de-2019.txt § DIE MAUERN); and walls built on a building site stay on
the finished building ("Tore ... und Mauern ... können auf Baustellen errichtet werden",
§ DIE BAUSTELLEN)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.catalogue import BuildingType, Side
from referee.geometry import Alhambra, placement_problems
from referee.record.model import Coord


@dataclass(frozen=True)
class Tile:
    name: str
    walls: frozenset[Side] = frozenset()
    type: BuildingType | None = None


@dataclass(frozen=True)
class Site:
    carried_tile: Tile

    @property
    def walls(self) -> frozenset[Side]:
        return self.carried_tile.walls

    type: None = None


def test_walls_carried_by_a_tile_come_onto_its_cell_and_the_rules_see_them() -> None:
    alh = Alhambra()
    tile = Tile("a")
    alh.carry_walls(tile, frozenset({Side.E}))
    assert alh.carried_walls(tile) == frozenset({Side.E})
    # on -1,0 its carried east wall faces the open fountain
    assert [p.code for p in placement_problems(alh, Coord(-1, 0), tile)] == [
        "PLACE-WALL",
        "PLACE-WALK",
    ]
    assert placement_problems(alh, Coord(1, 0), tile) == []
    alh.place(Coord(1, 0), tile)
    assert alh.overlay(Coord(1, 0)) == frozenset({Side.E})
    assert alh.carried_walls(tile) == frozenset()


def test_walls_on_a_site_stay_on_the_tile_it_carried() -> None:
    alh = Alhambra()
    tile = Tile("b")
    alh.place(Coord(1, 0), Site(tile))
    alh.add_overlay(Coord(1, 0), frozenset({Side.N}))
    alh.remove(Coord(1, 0))  # the site is completed: the tile takes its place
    alh.place(Coord(1, 0), tile)
    assert alh.overlay(Coord(1, 0)) == frozenset({Side.N})


def test_an_alhambra_without_carried_walls_is_unchanged() -> None:
    alh = Alhambra()
    tile = Tile("c")
    assert alh.carried_walls(tile) == frozenset()
    alh.place(Coord(1, 0), tile)
    assert alh.layers is None
