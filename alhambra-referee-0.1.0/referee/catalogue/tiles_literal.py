"""The base game's tile catalogue as parsed from tiles-base.yaml.

Written by ``tools/bundled_literals.py`` from referee/catalogue/tiles-base.yaml: do not edit; run the tool again after
changing them (tests/test_speed25_native.py checks that this module holds what parsing gives).
"""

# ruff: noqa: E501

TEXT = '# Alhambra (Dirk Henn, Queen Games 2003) - base game building tiles: component data only.\n# Compiled for the rules-referee project; every value below is cross-checked (see tiles-notes.md).\n#\n# Sides: N = top, E = right, S = bottom, W = left, as the tile lies printed side up with its\n# number readable (the game never rotates tiles). walls lists the sides that show a city wall.\n# Types (EN / DE): pavilion / Pavillon, seraglio / Serail, arcades / Arkaden,\n#                  chambers / Gemaecher, garden / Garten, tower / Turm.\n#\n# Sources (all agree on all 54 tiles unless noted):\n#  [A] thoun/bga-alhambra @a1ffe96 (Board Game Arena), modules/php/Buildings.php\n#      (side codes 0..3 = N,E,S,W per modules/php/Board.php and modules/js/Building.js)\n#  [A\'] same repo, misc/old/materials.inc.php (the earlier BGA version by G. Isabelli; same data)\n#  [A-img] same repo, misc/buildings.jpg: the BGA sprite of the printed tile artwork (7 x 11 cells\n#      of 95 px). Walls were measured from the dark wall borders in each cell and prices were read\n#      off the image; they match [A] for all 60 cells (54 buildings + 6 start tiles).\n#  [B] lukfugl/alhambra @1876453 (Rails, 2009), db/tiles.yml (wall flag order E,S,W,N per\n#      app/models/tile.rb; calls seraglio "manor" and arcades "mezzanine")\n#  [C] czuczi/alhambra_szerver @9280a45 (Java, 2015), src/BuildingDeck.java (constructor argument\n#      order top,left,right,bottom per src/BuildingCard.java; the image file names such as\n#      "brown_4_tbr" give the same walls on their own)\n#  [D] Howest course template buildings.json (one identical file in Stijn-Vdh/Alhambra_Project_Server,\n#      LaurensGiesen/Alhambra-Serverside, MV-Alhambra/Server and MartienskieNum1/Alhambra-Server,\n#      src/main/resources/buildings.json). One error: it gives an arcades 8 tile a W wall where\n#      every other source (and the artwork) shows E.\n#\n# Checks: 54 tiles = 7 + 7 + 9 + 9 + 11 + 11; wall segments per type 11/11/13/13/16/16 = 80;\n# 20 segments on each side N/E/S/W; tiles by wall count 0:10, 1:16, 2:20, 3:8.\n# Within one type, tiles with the same price are listed in [A]\'s order.\n\nstart_tile: {count: 6, name: lion fountain / Loewenbrunnen, walls: []}   # no walls ([A], [A-img], [B], rulebook)\n\nbuilding_tiles:\n  # pavilion: 7 tiles\n  - {type: pavilion, price: 2, walls: [N, E, W]}\n  - {type: pavilion, price: 3, walls: [S, W]}\n  - {type: pavilion, price: 4, walls: [E, S]}\n  - {type: pavilion, price: 5, walls: [N, W]}\n  - {type: pavilion, price: 6, walls: [N]}\n  - {type: pavilion, price: 7, walls: [E]}\n  - {type: pavilion, price: 8, walls: []}\n  # seraglio: 7 tiles\n  - {type: seraglio, price: 3, walls: [E, S, W]}\n  - {type: seraglio, price: 4, walls: [N, E]}\n  - {type: seraglio, price: 5, walls: [S, W]}\n  - {type: seraglio, price: 6, walls: [E, S]}\n  - {type: seraglio, price: 7, walls: [W]}\n  - {type: seraglio, price: 8, walls: [S]}\n  - {type: seraglio, price: 9, walls: []}\n  # arcades: 9 tiles\n  - {type: arcades, price: 4, walls: [N, E, S]}\n  - {type: arcades, price: 5, walls: [N, W]}\n  - {type: arcades, price: 6, walls: [S, W]}\n  - {type: arcades, price: 6, walls: [N, E]}\n  - {type: arcades, price: 7, walls: [E, S]}\n  - {type: arcades, price: 8, walls: [N]}\n  - {type: arcades, price: 8, walls: [E]}\n  - {type: arcades, price: 9, walls: []}\n  - {type: arcades, price: 10, walls: []}\n  # chambers: 9 tiles\n  - {type: chambers, price: 5, walls: [N, S, W]}\n  - {type: chambers, price: 6, walls: [E, S]}\n  - {type: chambers, price: 7, walls: [S, W]}\n  - {type: chambers, price: 7, walls: [N, E]}\n  - {type: chambers, price: 8, walls: [N, W]}\n  - {type: chambers, price: 9, walls: [W]}\n  - {type: chambers, price: 9, walls: [S]}\n  - {type: chambers, price: 10, walls: []}\n  - {type: chambers, price: 11, walls: []}\n  # garden: 11 tiles\n  - {type: garden, price: 6, walls: [E, S, W]}\n  - {type: garden, price: 7, walls: [N, S, W]}\n  - {type: garden, price: 8, walls: [S, W]}\n  - {type: garden, price: 8, walls: [N, E]}\n  - {type: garden, price: 8, walls: [N, W]}\n  - {type: garden, price: 9, walls: [E]}\n  - {type: garden, price: 10, walls: [N]}\n  - {type: garden, price: 10, walls: [W]}\n  - {type: garden, price: 10, walls: []}\n  - {type: garden, price: 11, walls: []}\n  - {type: garden, price: 12, walls: [S]}\n  # tower: 11 tiles\n  - {type: tower, price: 7, walls: [N, E, W]}\n  - {type: tower, price: 8, walls: [N, E, S]}\n  - {type: tower, price: 9, walls: [E, S]}\n  - {type: tower, price: 9, walls: [N, E]}\n  - {type: tower, price: 9, walls: [N, W]}\n  - {type: tower, price: 10, walls: [W]}\n  - {type: tower, price: 11, walls: [N]}\n  - {type: tower, price: 11, walls: [S]}\n  - {type: tower, price: 11, walls: []}\n  - {type: tower, price: 12, walls: []}\n  - {type: tower, price: 13, walls: [E]}\n'

DATA = {
    "start_tile": {"count": 6, "name": "lion fountain / Loewenbrunnen", "walls": []},
    "building_tiles": [
        {"type": "pavilion", "price": 2, "walls": ["N", "E", "W"]},
        {"type": "pavilion", "price": 3, "walls": ["S", "W"]},
        {"type": "pavilion", "price": 4, "walls": ["E", "S"]},
        {"type": "pavilion", "price": 5, "walls": ["N", "W"]},
        {"type": "pavilion", "price": 6, "walls": ["N"]},
        {"type": "pavilion", "price": 7, "walls": ["E"]},
        {"type": "pavilion", "price": 8, "walls": []},
        {"type": "seraglio", "price": 3, "walls": ["E", "S", "W"]},
        {"type": "seraglio", "price": 4, "walls": ["N", "E"]},
        {"type": "seraglio", "price": 5, "walls": ["S", "W"]},
        {"type": "seraglio", "price": 6, "walls": ["E", "S"]},
        {"type": "seraglio", "price": 7, "walls": ["W"]},
        {"type": "seraglio", "price": 8, "walls": ["S"]},
        {"type": "seraglio", "price": 9, "walls": []},
        {"type": "arcades", "price": 4, "walls": ["N", "E", "S"]},
        {"type": "arcades", "price": 5, "walls": ["N", "W"]},
        {"type": "arcades", "price": 6, "walls": ["S", "W"]},
        {"type": "arcades", "price": 6, "walls": ["N", "E"]},
        {"type": "arcades", "price": 7, "walls": ["E", "S"]},
        {"type": "arcades", "price": 8, "walls": ["N"]},
        {"type": "arcades", "price": 8, "walls": ["E"]},
        {"type": "arcades", "price": 9, "walls": []},
        {"type": "arcades", "price": 10, "walls": []},
        {"type": "chambers", "price": 5, "walls": ["N", "S", "W"]},
        {"type": "chambers", "price": 6, "walls": ["E", "S"]},
        {"type": "chambers", "price": 7, "walls": ["S", "W"]},
        {"type": "chambers", "price": 7, "walls": ["N", "E"]},
        {"type": "chambers", "price": 8, "walls": ["N", "W"]},
        {"type": "chambers", "price": 9, "walls": ["W"]},
        {"type": "chambers", "price": 9, "walls": ["S"]},
        {"type": "chambers", "price": 10, "walls": []},
        {"type": "chambers", "price": 11, "walls": []},
        {"type": "garden", "price": 6, "walls": ["E", "S", "W"]},
        {"type": "garden", "price": 7, "walls": ["N", "S", "W"]},
        {"type": "garden", "price": 8, "walls": ["S", "W"]},
        {"type": "garden", "price": 8, "walls": ["N", "E"]},
        {"type": "garden", "price": 8, "walls": ["N", "W"]},
        {"type": "garden", "price": 9, "walls": ["E"]},
        {"type": "garden", "price": 10, "walls": ["N"]},
        {"type": "garden", "price": 10, "walls": ["W"]},
        {"type": "garden", "price": 10, "walls": []},
        {"type": "garden", "price": 11, "walls": []},
        {"type": "garden", "price": 12, "walls": ["S"]},
        {"type": "tower", "price": 7, "walls": ["N", "E", "W"]},
        {"type": "tower", "price": 8, "walls": ["N", "E", "S"]},
        {"type": "tower", "price": 9, "walls": ["E", "S"]},
        {"type": "tower", "price": 9, "walls": ["N", "E"]},
        {"type": "tower", "price": 9, "walls": ["N", "W"]},
        {"type": "tower", "price": 10, "walls": ["W"]},
        {"type": "tower", "price": 11, "walls": ["N"]},
        {"type": "tower", "price": 11, "walls": ["S"]},
        {"type": "tower", "price": 11, "walls": []},
        {"type": "tower", "price": 12, "walls": []},
        {"type": "tower", "price": 13, "walls": ["E"]},
    ],
}
