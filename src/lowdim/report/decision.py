"""How a claim "A below (above) B" is decided: beyond the noise of its repeated runs.

A claim compares two sides measured several times. Its sign alone says nothing when the
runs disagree, so each claim is decided by a one-sided test at :data:`ALPHA`:

- **paired** runs (per seed, fold or split: the same split of the data on both sides):
  the differences A - B of each pair, by a one-sided paired t-test when the entry
  aggregates by the mean, or a one-sided Wilcoxon signed-rank test when it aggregates by
  the median (heavy-tailed errors, such as classic Nyström's);
- **independent** runs (repeated timed fits of each side, draws at two settings that
  share no seed, or two methods' seeded runs that share no random draw): a one-sided
  Mann-Whitney U test on the two samples, with at least :data:`MIN_FITS` runs per side (the value shown is each side's median); with 3 runs per
  side it passes only when every run of one side beats every run of the other.

The claim *reproduces* when the test in the paper's direction passes, *differs* when the
test in the other direction passes, and is *within noise* otherwise. Fewer than 2 pairs
(or :data:`MIN_FITS` independent runs per side) cannot be tested: *not computed*; nor can
the same non-zero difference on every pair, which has no spread to test it against, nor
fewer than 5 non-zero differences read by Wilcoxon's test, which cannot reach 0.05 on them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ALPHA", "CLAIM_RULE", "MIN_FITS", "Decision", "independent_decision",
           "paired_decision"]

#: Significance level of every claim's one-sided test.
ALPHA = 0.05
#: Fewest independent runs per side of a claim on independent runs (a timing claim).
MIN_FITS = 3
#: The decision rule, as the README and the report state it.
CLAIM_RULE = (
    "A claim (A below or above B) is decided on its repeated runs, never on the sign of one "
    "difference: paired runs (per seed, fold or split) by a one-sided paired test of the "
    "differences at 0.05, Student's t where the entry reads means and Wilcoxon's signed-rank "
    "where it reads medians; independent runs (timed fits, draws at two settings that share "
    "no seed, or two methods' seeded runs that share no random draw; at least 3 per side, "
    "the medians shown) by a one-sided Mann-Whitney "
    "test at 0.05, which 3 runs per side pass only when every run of one side beats every "
    "run of the other. The test in the paper's direction passing reads reproduced, the "
    "other direction's differs, neither within noise. The same difference on every pair "
    "has no spread to test it against, and Wilcoxon's test cannot pass on fewer than 5 "
    "non-zero differences: not computed.")


@dataclass(frozen=True)
class Decision:
    """The outcome of a claim's test: a verdict, the difference shown and why.

    Examples
    --------
    >>> from lowdim.report.decision import paired_decision
    >>> decision = paired_decision([-0.2, -0.3, -0.25], "less", unit="seed")
    >>> decision.verdict, round(decision.difference, 2)
    ('reproduced', -0.25)
    """

    verdict: str
    difference: float
    reason: str


def _one_sided_p(differences, alternative: str, median: bool) -> float:
    from scipy import stats  # here: the workflow's start-up imports this module's constants

    if np.all(differences == 0):
        return 1.0
    if median:
        return float(stats.wilcoxon(differences, alternative=alternative).pvalue)
    return float(stats.ttest_1samp(differences, 0.0, alternative=alternative).pvalue)


def _no_spread(differences) -> bool:
    """The same non-zero difference on every pair, up to rounding (1e-9 of it). Such pairs
    do not vary (often neither side depends on the seed): a test would only count them, and
    a t-test divides by their zero spread."""
    top = np.abs(differences).max()
    return top > 0 and np.ptp(differences) <= 1e-9 * top


def _fewest_for_wilcoxon() -> int:
    """Fewest non-zero paired differences whose Wilcoxon test can pass at :data:`ALPHA`."""
    return int(np.ceil(np.log2(1 / ALPHA)))


def _verdict(p_way: float, p_other: float) -> str:
    if p_way <= ALPHA:
        return "reproduced"
    if p_other <= ALPHA:
        return "differs"
    return "within noise"


def _directions(expect: str) -> tuple[str, str]:
    return ("less", "greater") if expect == "less" else ("greater", "less")


def paired_decision(differences, expect: str, median: bool = False, unit: str = "pair"):
    """Decide a claim from the paired differences (ours - reference).

    Parameters
    ----------
    differences : array-like of float, shape (n_pairs,)
    expect : {"less", "greater"}
        The paper's direction: ours below (``less``) or above the reference.
    median : bool, default=False
        Wilcoxon's signed-rank test (for entries that read medians) instead of the t-test.
    unit : str, default="pair"
        What a pair is (``seed``, ``fold``), for the reason.

    Returns
    -------
    Decision
        ``not computed`` with fewer than 2 pairs, or the same non-zero difference on
        each (up to rounding).

    Examples
    --------
    >>> from lowdim.report.decision import paired_decision
    >>> paired_decision([0.02, 0.03, 0.01, 0.02], "greater", unit="fold").verdict
    'reproduced'

    Two folds up, one tied, one down: the sign of the mean does not decide.

    >>> decision = paired_decision([0.01, 0.02, 0.0, -0.01], "greater", unit="fold")
    >>> decision.verdict
    'within noise'
    >>> print(decision.reason)
    per fold: 2 in the paper's direction, 1 tied, 1 against; mean difference 0.005 (sd 0.01291); one-sided paired t-test p = 0.25 (the paper's direction), 0.75 (the other)

    Four seeds all up, read by medians: Wilcoxon's test cannot pass on four pairs (its
    smallest one-sided p is 1/16), so there is no verdict to give, not "within noise".

    >>> paired_decision([0.01, 0.02, 0.03, 0.04], "greater", median=True, unit="seed").reason
    '4 non-zero difference(s) over 4 seeds; the Wilcoxon signed-rank test cannot reach p <= 0.05 on fewer than 5 (its smallest one-sided p is 0.0625)'

    Every seed up by the same amount: nothing varies, so there is nothing to test.

    >>> decision = paired_decision([0.01, 0.01], "greater", median=True, unit="seed")
    >>> decision.verdict, decision.reason
    ('not computed', 'the same difference, 0.01, on each of the 2 seeds: no spread to test it against')
    """
    d = np.asarray(differences, dtype=float)
    way, other = _directions(expect)
    if d.size < 2:
        return Decision("not computed", float(d.mean()) if d.size else np.nan,
                        f"{d.size} {unit}(s) in common; a paired test needs at least 2")
    centre = float(np.median(d) if median else d.mean())
    if _no_spread(d):
        return Decision("not computed", centre,
                        f"the same difference, {d[0]:.4g}, on each of the {d.size} {unit}s: "
                        f"no spread to test it against")
    nonzero = int(np.count_nonzero(d))
    if median and 0 < nonzero and 0.5 ** nonzero > ALPHA:
        # Wilcoxon's smallest one-sided p on m non-zero differences is 1/2^m: with fewer
        # than 5 the test cannot pass either way, and "within noise" would say nothing
        # (no difference on any pair stays "within noise": the two sides agree)
        return Decision("not computed", centre,
                        f"{nonzero} non-zero difference(s) over {d.size} {unit}s; the "
                        f"Wilcoxon signed-rank test cannot reach p <= {ALPHA:g} on fewer than "
                        f"{_fewest_for_wilcoxon()} (its smallest one-sided p is "
                        f"{0.5 ** nonzero:.3g})")
    p_way, p_other = _one_sided_p(d, way, median), _one_sided_p(d, other, median)
    agree = int(((d < 0) if expect == "less" else (d > 0)).sum())
    tied = int((d == 0).sum())
    test = "Wilcoxon signed-rank" if median else "paired t-test"
    reason = (f"per {unit}: {agree} in the paper's direction, {tied} tied, "
              f"{d.size - agree - tied} against; {'median' if median else 'mean'} difference "
              f"{centre:.4g} (sd {np.std(d, ddof=1):.4g}); one-sided {test} p = {p_way:.2g} "
              f"(the paper's direction), {p_other:.2g} (the other)")
    return Decision(_verdict(p_way, p_other), centre, reason)


def independent_decision(ours, reference, expect: str, unit: str = "run"):
    """Decide a claim from independent repeated measurements of each side (timed fits).

    Parameters
    ----------
    ours, reference : array-like of float
        Every fit's measurement of each side.
    expect : {"less", "greater"}
    unit : str, default="run"
        What a measurement is (``repeat``, ``repetition``), for the reason.

    Returns
    -------
    Decision
        ``not computed`` with fewer than :data:`MIN_FITS` per side; the difference is
        the difference of the medians.

    Examples
    --------
    >>> from lowdim.report.decision import independent_decision
    >>> independent_decision([1.0, 1.1, 1.2], [2.0, 2.1, 1.9], "less").verdict
    'reproduced'
    >>> independent_decision([1.0, 2.05, 1.2], [2.0, 2.1, 1.9], "less").verdict
    'within noise'
    >>> independent_decision([1.0], [2.0], "less", unit="repeat").reason
    '1 repeat(s) of ours and 1 of the reference; a claim on independent runs needs the median of at least 3 per side'
    """
    a, b = np.asarray(ours, dtype=float), np.asarray(reference, dtype=float)
    difference = float(np.median(a) - np.median(b)) if a.size and b.size else np.nan
    if min(a.size, b.size) < MIN_FITS:
        return Decision("not computed", difference,
                        f"{a.size} {unit}(s) of ours and {b.size} of the reference; a claim "
                        f"on independent runs needs the median of at least {MIN_FITS} per side")
    from scipy import stats

    way, other = _directions(expect)
    p_way = float(stats.mannwhitneyu(a, b, alternative=way).pvalue)
    p_other = float(stats.mannwhitneyu(a, b, alternative=other).pvalue)
    beats = int(sum(((x < y) if expect == "less" else (x > y)) for x in a for y in b))
    reason = (f"medians of {a.size} and {b.size} {unit}s; {beats} of {a.size * b.size} "
              f"(ours, reference) pairs in the paper's direction; one-sided Mann-Whitney "
              f"p = {p_way:.2g} (the paper's direction), {p_other:.2g} (the other)")
    return Decision(_verdict(p_way, p_other), difference, reason)
