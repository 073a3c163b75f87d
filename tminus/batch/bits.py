"""Sets of cells as bit masks over a batch: ``(batch, words)`` arrays of uint64, bit ``c``
of the mask for cell ``c`` (word ``c // 64``, bit ``c % 64``)."""

from __future__ import annotations

import numpy as np

WORD = 64
_BYTE_COUNTS = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


def words_for(cells: int) -> int:
    return (cells + WORD - 1) // WORD


def popcount(masks: np.ndarray, dtype: type = np.int64) -> np.ndarray:
    """Set bits of each uint64 (same shape)."""
    if hasattr(np, "bitwise_count"):  # NumPy 2
        return np.bitwise_count(masks).astype(dtype)
    counts = _BYTE_COUNTS[masks[..., None].view(np.uint8)]
    return counts.sum(axis=-1, dtype=dtype).reshape(masks.shape)


# SELECT_IN_BYTE[byte * 8 + rank]: the position of the rank-th set bit of a byte.
SELECT_IN_BYTE = np.zeros(256 * 8, dtype=np.uint64)
for _byte in range(256):
    for _rank, _bit in enumerate(b for b in range(8) if _byte >> b & 1):
        SELECT_IN_BYTE[_byte * 8 + _rank] = _bit


def select_bit(word: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The position of the ``rank``-th set bit (0 first) of each uint64 ``word``: halve
    the word down to a byte, then look the byte up."""
    position = np.zeros(word.shape, dtype=np.uint64)
    rank = rank.astype(np.uint64)
    for width in (32, 16, 8):
        low = (word >> position) & np.uint64((1 << width) - 1)
        count = popcount(low, np.uint64)
        beyond = rank >= count
        rank = rank - beyond * count
        position = position + beyond * np.uint64(width)
    byte = (word >> position) & np.uint64(255)
    return (position + SELECT_IN_BYTE.take((byte << np.uint64(3)) + rank)).astype(np.int64)


def unpack(masks: np.ndarray, cells: int) -> np.ndarray:
    """(..., words) uint64 -> (..., cells) bool, cell ``c`` at index ``c`` (little-endian
    machines: bytes of a word from its lowest bits up)."""
    as_bytes = np.ascontiguousarray(masks).view(np.uint8)
    bits = np.unpackbits(as_bytes, axis=-1, bitorder="little")
    return bits[..., :cells].astype(bool)


def cell_table(cells: int, masks: list[int]) -> np.ndarray:
    """Python int masks -> (len, words) uint64, plus a last all-zero row (for ``OUT``)."""
    words = words_for(cells)
    table = np.zeros((len(masks) + 1, words), dtype=np.uint64)
    for i, mask in enumerate(masks):
        for w in range(words):
            table[i, w] = (mask >> (WORD * w)) & ((1 << WORD) - 1)
    return table


class Cells:
    """A set of cells for each game of a batch: a list of uint64 arrays, one a word.

    With 64 cells or fewer (Sputnik up to radius 4) a set is one array of one word a game,
    and every operation is one NumPy call."""

    __slots__ = ("words",)

    def __init__(self, words: list[np.ndarray]) -> None:
        self.words = words

    def __and__(self, other: Cells) -> Cells:
        return Cells([a & b for a, b in zip(self.words, other.words, strict=True)])

    def __or__(self, other: Cells) -> Cells:
        return Cells([a | b for a, b in zip(self.words, other.words, strict=True)])

    def minus(self, other: Cells) -> Cells:
        return Cells([a & ~b for a, b in zip(self.words, other.words, strict=True)])

    def any(self) -> np.ndarray:
        found = self.words[0] != 0
        for word in self.words[1:]:
            found |= word != 0
        return found

    def count(self) -> np.ndarray:
        total = popcount(self.words[0])
        for word in self.words[1:]:
            total += popcount(word)
        return total

    def take(self, games: np.ndarray) -> Cells:
        return Cells([word.take(games) for word in self.words])

    def put(self, games: np.ndarray, other: Cells) -> None:
        for word, value in zip(self.words, other.words, strict=True):
            word[games] = value

    def copy(self) -> Cells:
        return Cells([word.copy() for word in self.words])

    @staticmethod
    def where(condition: np.ndarray, yes: Cells, no: Cells) -> Cells:
        return Cells([np.where(condition, a, b) for a, b in zip(yes.words, no.words, strict=True)])

    def unpack(self, cells: int) -> np.ndarray:
        """(games, cells) bool."""
        return unpack(np.stack(self.words, axis=1), cells)


class CellTable:
    """Sets of cells by index (a cell's neighbours, a cell alone), looked up for a batch.
    Index ``len(masks)``, one past the last, is the empty set (for cells that are ``OUT``)."""

    def __init__(self, cells: int, masks: list[int]) -> None:
        table = cell_table(cells, masks)
        self.columns = [np.ascontiguousarray(table[:, w]) for w in range(table.shape[1])]

    def __getitem__(self, index: np.ndarray) -> Cells:
        return Cells([column.take(index) for column in self.columns])

    def constant(self, index: int, games: int) -> Cells:
        return Cells([np.full(games, column[index], dtype=np.uint64) for column in self.columns])


def select_in_sets(sets: list[Cells], rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(which set, which bit index) of the ``rank``-th member (0 first) of the sets read
    one after the other, for each game."""
    words = [(i, w, word) for i, s in enumerate(sets) for w, word in enumerate(s.words)]
    chosen_set = np.zeros(len(rank), dtype=np.int64)
    chosen_word = np.zeros(len(rank), dtype=np.int64)
    chosen = words[0][2]
    rank = rank.astype(np.int64)
    within = rank
    before = np.zeros(len(rank), dtype=np.int64)
    for i, w, word in words:
        count = popcount(word)
        here = (rank >= before) & (rank < before + count)
        chosen_set = np.where(here, i, chosen_set)
        chosen_word = np.where(here, w, chosen_word)
        within = np.where(here, rank - before, within)
        chosen = np.where(here, word, chosen)
        before = before + count
    return chosen_set, chosen_word * WORD + select_bit(chosen, within)
