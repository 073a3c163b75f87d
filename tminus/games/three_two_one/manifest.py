"""3-2-1 Countdown in T-minus: everything beyond the engine, in one place (read by the
registries; see ``tminus.core.manifest``). Nothing named here is imported until used."""

from tminus.core.manifest import GameManifest, Levels

MANIFEST = GameManifest(
    name="three_two_one",
    game="tminus.games.three_two_one.game:ThreeTwoOneGame",
    description="Discard and draw to bring your hand down to five or less, then call "
    "Countdown! 2–8 players.",
    luck="every card dealt and drawn",
    agents={"greedy": "tminus.agents.greedy.three_two_one:ThreeTwoOneGreedy"},
    # Calibrated on the development machine (README, "Levels"); hidden cards: ismcts.
    levels=Levels(hard="ismcts:simulations=200", expert="ismcts:simulations=800"),
    board="/static/js/boards/three_two_one.js",
    batch={
        "numpy": "tminus.batch.three_two_one:ThreeTwoOneBatch",
        "jax": "tminus.batch.jax_three_two_one:ThreeTwoOneJax",
    },
    # A review's playouts (tminus.review.judges): a rule player, thousands of games at once.
    batch_agents={"shedder": "tminus.batch.rollouts:ThreeTwoOneShedder"},
    batch_rollout="shedder",
)
