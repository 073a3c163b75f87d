"""Sputnik in T-minus: everything beyond the engine, in one place (read by the registries;
see ``tminus.core.manifest``). Nothing named here is imported until used."""

from tminus.core.manifest import GameManifest, Levels

MANIFEST = GameManifest(
    name="sputnik",
    game="tminus.games.sputnik.game:SputnikGame",
    description="Fly your rocket and take away galaxies to trap the others: the last rocket "
    "flying wins. 2–6 players.",
    luck="the lot that picks who starts",
    agents={
        "greedy": "tminus.agents.greedy.sputnik:SputnikGreedy",
        "alphabeta": "tminus.agents.search.alphabeta:AlphaBetaAgent",
        # Perfect inside the solved endgame table (two players, radius 3), its search
        # elsewhere.
        "endgame": "tminus.agents.solvers.sputnik_endgame:SputnikEndgameAgent",
    },
    evaluation="tminus.agents.evaluation.sputnik",
    solvers=("tminus.agents.solvers.sputnik:report",),
    facts="tminus.games.sputnik.analysis:facts",
    figures=("tminus.sim.report:sputnik_isolated_first",),
    # Calibrated on the development machine (README, "Levels"). With two players the
    # expert is the winner of the head-to-head of mcts:simulations=1200 and
    # alphabeta:max_nodes=35000 (each playing perfectly inside the endgame table):
    # alpha-beta, 38 of 40. With more, where the table does not apply and alpha-beta's
    # nodes cost more, MCTS (not measured head to head at those counts).
    levels=Levels(
        hard="mcts:simulations=300",
        expert="mcts:simulations=1200",
        experts_by_players={
            2: ("endgame:search=alphabeta:max_nodes=35000", "Alpha-beta + endgames (expert)")
        },
    ),
    board="/static/js/boards/sputnik.js",
    batch={
        "numpy": "tminus.batch.sputnik:SputnikBatch",
        "jax": "tminus.batch.jax_sputnik:SputnikJax",
    },
    batch_agents={"greedy": "tminus.batch.greedy:SputnikBatchGreedy"},
    batch_rollout="greedy",  # (the review's playouts: the greedy bot, as on the reference engine)
)
