"""Components of the game: what exists and what it is called (no rules here)."""

from referee.catalogue.components import (
    ALL_MONEY_CARDS,
    BUILDING_TYPES,
    CURRENCIES,
    MONEY_COPIES,
    SIDES,
    BuildingType,
    Catalogue,
    Currency,
    MoneyCard,
    Side,
    TileKind,
    catalogue,
    wall_code,
)

__all__ = [
    "ALL_MONEY_CARDS",
    "BUILDING_TYPES",
    "CURRENCIES",
    "MONEY_COPIES",
    "SIDES",
    "BuildingType",
    "Catalogue",
    "Currency",
    "MoneyCard",
    "Side",
    "TileKind",
    "catalogue",
    "wall_code",
]
