"""``alhambra-referee serve``: a local web page that scores a finished physical game.

The players lay out each Alhambra by tapping cells and picking tiles; the page writes the
notation's position block and sends it to this server, which reads, checks and scores it with the
code of the ``score`` command (:mod:`referee.serve.api`) and answers in JSON. The page applies no
rule itself: which tiles fit a cell is asked of the engine's placement decision too.

- :mod:`referee.serve.api`: the answers (pure functions of the request, no HTTP);
- :mod:`referee.serve.server`: the HTTP server (standard library), its limits and routes;
- :mod:`referee.serve.page`: the page (HTML with its stylesheet and script, bundled assets).
"""
