"""Count Down in T-minus: everything beyond the engine, in one place (read by the
registries; see ``tminus.core.manifest``). Nothing named here is imported until used."""

from tminus.core.manifest import GameManifest, Levels

MANIFEST = GameManifest(
    name="count_down",
    game="tminus.games.count_down.game:CountDownGame",
    description="Build a rocket, collect your photo cards and win the countdown to fly to "
    "the Moon. 2–6 players.",
    agents={"greedy": "tminus.agents.greedy.count_down:CountDownGreedy"},
    solvers=("tminus.agents.solvers.count_down:report",),
    facts="tminus.games.count_down.analysis:facts",
    figures=("tminus.sim.report:count_down_ready",),
    # Timed on the development machine (README, "Levels": 90th percentile of a decision
    # 0.45 s at 100 simulations, 1.77 s at 300, 2.04 s at 350); hidden cards: ismcts.
    levels=Levels(hard="ismcts:simulations=100", expert="ismcts:simulations=300"),
    board="/static/js/boards/count_down.js",
)
