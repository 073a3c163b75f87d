"""Sets of cells as bit masks over a batch: int64 words of 63 bits (never negative, so
shifts and counts need no casts), bit ``c`` of the set for cell ``c`` (word ``c // 63``,
bit ``c % 63``)."""

from __future__ import annotations

import numpy as np

WORD = 63
_BYTE_COUNTS = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


def words_for(cells: int) -> int:
    return (cells + WORD - 1) // WORD


def popcount(masks: np.ndarray) -> np.ndarray:
    """Set bits of each non-negative int64 (same shape; uint8 with NumPy 2)."""
    if hasattr(np, "bitwise_count"):  # NumPy 2
        return np.bitwise_count(masks)
    counts = _BYTE_COUNTS[masks[..., None].view(np.uint8)]
    return counts.sum(axis=-1, dtype=np.int64).reshape(masks.shape)


# SELECT_IN_BYTE[byte * 8 + rank]: the position of the rank-th set bit of a byte.
SELECT_IN_BYTE = np.zeros(256 * 8, dtype=np.int64)
for _byte in range(256):
    for _rank, _bit in enumerate(b for b in range(8) if _byte >> b & 1):
        SELECT_IN_BYTE[_byte * 8 + _rank] = _bit


def select_bit(word: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The position of the ``rank``-th set bit (0 first) of each ``word``: halve the word
    down to a byte, then look the byte up."""
    position = np.zeros(word.shape, dtype=np.int64)
    for width in (32, 16, 8):
        count = popcount((word >> position) & ((1 << width) - 1))
        beyond = rank >= count
        rank = np.where(beyond, rank - count, rank)
        position += beyond * width
    byte = (word >> position) & 255
    return position + SELECT_IN_BYTE.take((byte << 3) + rank)


def unpack(masks: np.ndarray, cells: int) -> np.ndarray:
    """(..., words) int64 -> (..., cells) bool, cell ``c`` at index ``c``."""
    as_bytes = np.ascontiguousarray(masks.astype("<i8")).view(np.uint8)
    bits = np.unpackbits(as_bytes, axis=-1, bitorder="little")
    shape = bits.shape[:-1]
    bits = bits.reshape(*shape, masks.shape[-1], 64)[..., :WORD]
    return bits.reshape(*shape, -1)[..., :cells].astype(bool)


def cell_table(cells: int, masks: list[int]) -> np.ndarray:
    """Python int masks -> (len, words) int64, plus a last all-zero row (for ``OUT``)."""
    words = words_for(cells)
    table = np.zeros((len(masks) + 1, words), dtype=np.int64)
    for i, mask in enumerate(masks):
        for w in range(words):
            table[i, w] = (mask >> (WORD * w)) & ((1 << WORD) - 1)
    return table


class Cells:
    """A set of cells for each game of a batch: a list of int64 arrays, one a word.

    With 63 cells or fewer (Sputnik up to radius 4) a set is one array of one word a game,
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
        total = popcount(self.words[0]).astype(np.int64)
        for word in self.words[1:]:
            total += popcount(word)
        return total

    def take(self, games: np.ndarray) -> Cells:
        return Cells([word.take(games) for word in self.words])

    def put(self, games: np.ndarray, other: Cells) -> None:
        for word, value in zip(self.words, other.words, strict=True):
            word[games] = value

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
        return Cells([np.full(games, column[index], dtype=np.int64) for column in self.columns])


def select_in_sets(sets: list[Cells], uniform: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each game, a member of the sets read one after the other, uniformly at random
    by ``uniform`` (numbers in [0, 1)): (which set, which cell)."""
    words = [(i, w, word) for i, s in enumerate(sets) for w, word in enumerate(s.words)]
    counts = [popcount(word).astype(np.int64) for _, _, word in words]
    rank = (uniform * sum(counts)).astype(np.int64)
    # The member is in the last word whose members before it are not more than the rank.
    chosen_set = np.full(len(rank), words[0][0])
    chosen_word = np.full(len(rank), words[0][1])
    chosen, within, before = words[0][2], rank, counts[0]
    for (i, w, word), count in zip(words[1:], counts[1:], strict=True):
        later = rank >= before
        chosen_set = np.where(later, i, chosen_set)
        chosen_word = np.where(later, w, chosen_word)
        within = np.where(later, rank - before, within)
        chosen = np.where(later, word, chosen)
        before = before + count
    return chosen_set, chosen_word * WORD + select_bit(chosen, within)
