"""The tile catalogue's lookups by type and price come from an index made on first use
(eleventh step, start-up): the same tiles in the same order as a scan of all tiles, for the
shipped catalogue and for any other one; the catalogue's fields, equality and pickling are
unchanged."""

from __future__ import annotations

import pickle

from referee.catalogue import components
from referee.catalogue.components import BuildingType, Catalogue, Side, TileKind, catalogue


def _scan(cat: Catalogue, type_: BuildingType, price: int) -> tuple[TileKind, ...]:
    return tuple(t for t in cat.tiles if t.type is type_ and t.price == price)


def test_every_type_and_price_gives_what_a_scan_gives() -> None:
    cat = catalogue()
    seen = 0
    for type_ in BuildingType:
        for price in range(0, 20):
            got = cat.by_type_price(type_, price)
            assert got == _scan(cat, type_, price)
            assert isinstance(got, tuple)
            seen += len(got)
    assert seen == len(cat.tiles)  # every tile is found under its own type and price


def test_find_with_and_without_walls() -> None:
    cat = catalogue()
    for tile in cat.tiles:
        assert tile in cat.find(tile.type, tile.price, None)
        assert cat.find(tile.type, tile.price, tile.walls) == tuple(
            t for t in _scan(cat, tile.type, tile.price) if t.walls == tile.walls
        )
        assert tile in cat.find(tile.type, tile.price, tile.walls)
    some = cat.tiles[0]
    assert cat.find(some.type, 99, None) == ()


def test_another_catalogue_has_its_own_tiles() -> None:
    shipped = catalogue()
    shipped.by_type_price(BuildingType.GARDEN, 6)  # the shipped index exists first
    tiles = (
        TileKind(BuildingType.GARDEN, 6, frozenset({Side.N})),
        TileKind(BuildingType.GARDEN, 6, frozenset({Side.S})),
        TileKind(BuildingType.TOWER, 13, frozenset()),
    )
    small = Catalogue(tiles=tiles, start_tile_count=1)
    assert small.by_type_price(BuildingType.GARDEN, 6) == tiles[:2]
    assert small.by_type_price(BuildingType.TOWER, 13) == tiles[2:]
    assert small.by_type_price(BuildingType.TOWER, 12) == ()
    reversed_ = Catalogue(tiles=tiles[::-1], start_tile_count=1)  # the order is the catalogue's
    assert reversed_.by_type_price(BuildingType.GARDEN, 6) == (tiles[1], tiles[0])
    assert shipped.by_type_price(BuildingType.GARDEN, 6) == _scan(shipped, BuildingType.GARDEN, 6)


def test_the_catalogue_keeps_its_fields_equality_and_pickling() -> None:
    cat = catalogue()
    cat.by_type_price(BuildingType.PAVILION, 5)
    assert vars(cat) == {"tiles": cat.tiles, "start_tile_count": cat.start_tile_count}
    again = pickle.loads(pickle.dumps(cat))
    assert again == cat and vars(again) == vars(cat)
    assert again.by_type_price(BuildingType.PAVILION, 5) == cat.by_type_price(
        BuildingType.PAVILION, 5
    )
    assert repr(cat).startswith("Catalogue(tiles=(")
    assert components.short_code(cat.tiles[0]) == cat.tiles[0].code
