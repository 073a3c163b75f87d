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


_NEW_COUNT = hasattr(np, "bitwise_count")
_BYTES_ONE = np.uint64(0x0101010101010101)
_BYTES_HIGH = np.uint64(0x8080808080808080)
_BYTES_HIGH_SIGNED = np.int64(-0x7F7F7F7F7F7F7F80)  # the same bits, as an int64
_EIGHT = np.uint64(8)

# SELECT_IN_BYTE[byte * 8 + rank]: the position of the rank-th set bit of a byte.
SELECT_IN_BYTE = np.zeros(256 * 8, dtype=np.int64)
for _byte in range(256):
    for _rank, _bit in enumerate(b for b in range(8) if _byte >> b & 1):
        SELECT_IN_BYTE[_byte * 8 + _rank] = _bit


def select_bit(word: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The position of the ``rank``-th set bit (0 first) of each ``word`` (``rank`` below
    the word's count of set bits). The bytes' counts of set bits, multiplied by
    0x0101...01, give in each byte the count of its own and all lower bytes' bits; the
    bytes whose count is not above the rank are counted at once (SWAR: each byte's high
    bit); then the byte that holds the bit is looked up."""
    word = np.ascontiguousarray(word, dtype=np.int64)
    rank = np.asarray(rank, dtype=np.int64)
    counts = np.bitwise_count(word.view(np.uint8)).view(np.uint64) if _NEW_COUNT else None
    if counts is None:
        counts = _BYTE_COUNTS[word.view(np.uint8)].view(np.uint64)
    upto = counts * _BYTES_ONE  # byte j: the set bits of bytes 0 to j
    ranks = rank.view(np.uint64) * _BYTES_ONE | _BYTES_HIGH
    below = np.bitwise_count((ranks - upto) & _BYTES_HIGH) if _NEW_COUNT else None
    if below is None:
        below = popcount((ranks - upto).view(np.int64) & _BYTES_HIGH_SIGNED)
    # The bytes entirely before the bit (7 at most: a rank beyond the count reads byte 7).
    shift = np.minimum(below.astype(np.int64), 7) << 3
    before = ((upto << _EIGHT) >> shift.view(np.uint64)).view(np.int64) & 255
    byte = (word >> shift) & 255
    return shift + SELECT_IN_BYTE.take((byte << 3) + rank - before, mode="clip")


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

    def times(self, condition: np.ndarray) -> Cells:
        """The set where ``condition`` (bools), else the empty set."""
        return Cells([word * condition for word in self.words])

    @staticmethod
    def where(condition: np.ndarray, yes: Cells, no: Cells) -> Cells:
        # Arithmetic, not ``np.where``: NumPy's where is some five times slower on masks
        # that change from game to game.
        return Cells([b + (a - b) * condition for a, b in zip(yes.words, no.words, strict=True)])

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
        # (arithmetic choices: ``np.where`` is slow on masks that vary from game to game)
        chosen_set = chosen_set + (i - chosen_set) * later
        chosen_word = chosen_word + (w - chosen_word) * later
        within = within + (rank - before - within) * later
        chosen = chosen + (word - chosen) * later
        before = before + count
    return chosen_set, chosen_word * WORD + select_bit(chosen, within)
