//! The Dreyfus–Wagner programme: the fewest satellites joining a set of building groups.

use super::graph::{bits, Graph, INF, NONE};

/// Dreyfus–Wagner Steiner tree search over a sub-graph, with reusable buffers.
#[derive(Default)]
pub(super) struct DreyfusWagner {
    /// Global group bit of each terminal.
    pub(super) term_bit: Vec<usize>,
    /// Global node of each local node.
    pub(super) global: Vec<u32>,
    pub(super) local: Vec<u32>,
    pub(super) w: Vec<u8>,
    pub(super) off: Vec<u32>,
    pub(super) nbr: Vec<u32>,
    pub(super) n: usize,
    pub(super) budget: u8,
    pub(super) dp: Vec<u8>,
    pub(super) buckets: Vec<Vec<u32>>,
}

impl DreyfusWagner {
    /// Fills `dp[C][v]`, the fewest satellites of a connected set holding terminal groups `C`
    /// and node `v`, for every subset `C` of `terms`, using only groups in `region` and space
    /// hexes touching no group outside it. Values above `budget` are `INF`.
    ///
    /// `rows` (distance rows of all groups, as [`Graph::region_rows`] gives) sharpen the choice
    /// of useful hexes; by default the whole-graph distances are used.
    pub(super) fn run(
        &mut self,
        g: &Graph,
        terms: u64,
        region: u64,
        budget: u8,
        rows: Option<&[u8]>,
    ) {
        let rows = rows.unwrap_or(&g.dist);
        let k = g.groups.len();
        let total = g.nodes();
        self.budget = budget;
        self.term_bit = bits(terms).collect();
        let t = self.term_bit.len();
        // Local nodes: terminals first, other region groups, then useful space hexes.
        self.local.clear();
        self.local.resize(total, NONE);
        self.global.clear();
        for &b in &self.term_bit {
            self.local[b] = self.global.len() as u32;
            self.global.push(b as u32);
        }
        for b in bits(region & !terms) {
            if b < k {
                self.local[b] = self.global.len() as u32;
                self.global.push(b as u32);
            }
        }
        for v in k..total {
            if g.touch[v] & !region != 0 {
                continue;
            }
            // On a path between two terminals within the budget?
            let (mut s1, mut s2) = (INF, INF);
            for &b in &self.term_bit {
                let d = rows[b * total + v];
                if d < s1 {
                    s2 = s1;
                    s1 = d;
                } else if d < s2 {
                    s2 = d;
                }
            }
            if s2 == INF || (s1 as u16 + s2 as u16) > budget as u16 + 1 {
                continue;
            }
            self.local[v] = self.global.len() as u32;
            self.global.push(v as u32);
        }
        let n = self.global.len();
        self.n = n;
        self.w.clear();
        self.off.clear();
        self.nbr.clear();
        self.off.push(0);
        for i in 0..n {
            let v = self.global[i] as usize;
            self.w.push(u8::from(v >= k));
            for &u in &g.nbr[g.off[v] as usize..g.off[v + 1] as usize] {
                let lu = self.local[u as usize];
                if lu != NONE {
                    self.nbr.push(lu);
                }
            }
            self.off.push(self.nbr.len() as u32);
        }
        let size = (1usize << t) * n;
        self.dp.clear();
        self.dp.resize(size, INF);
        if self.buckets.len() < budget as usize + 1 {
            self.buckets.resize(budget as usize + 1, Vec::new());
        }
        for c in 1usize..(1 << t) {
            let base = c * n;
            if c.count_ones() == 1 {
                self.dp[base + c.trailing_zeros() as usize] = 0;
            } else {
                let low = c & c.wrapping_neg();
                let rest = c ^ low;
                // Submasks holding the lowest bit, except `c` itself.
                let mut s = rest;
                loop {
                    s = (s.wrapping_sub(1)) & rest;
                    let c1 = s | low;
                    if c1 != c {
                        let c2 = c ^ c1;
                        let (head, tail) = self.dp.split_at_mut(base);
                        let a = &head[c1 * n..c1 * n + n];
                        let b = &head[c2 * n..c2 * n + n];
                        let out = &mut tail[..n];
                        for (((o, &x), &y), &w) in out.iter_mut().zip(a).zip(b).zip(&self.w) {
                            let sum = (x as u16 + y as u16 - w as u16).min(INF as u16) as u8;
                            *o = (*o).min(sum);
                        }
                    }
                    if s == 0 {
                        break;
                    }
                }
                for x in &mut self.dp[base..base + n] {
                    if *x > budget {
                        *x = INF;
                    }
                }
            }
            self.relax(c);
        }
    }

    /// Shortest-path closure of `dp[c]` (Dial's buckets; weights 0 and 1).
    pub(super) fn relax(&mut self, c: usize) {
        let n = self.n;
        let budget = self.budget as usize;
        let row = &mut self.dp[c * n..c * n + n];
        for (v, &d) in row.iter().enumerate() {
            if d != INF {
                self.buckets[d as usize].push(v as u32);
            }
        }
        for d in 0..=budget {
            while let Some(v) = self.buckets[d].pop() {
                let v = v as usize;
                if row[v] as usize != d {
                    continue;
                }
                for &u in &self.nbr[self.off[v] as usize..self.off[v + 1] as usize] {
                    let u = u as usize;
                    let nd = d + self.w[u] as usize;
                    if nd <= budget && nd < row[u] as usize {
                        row[u] = nd as u8;
                        self.buckets[nd].push(u as u32);
                    }
                }
            }
        }
    }

    pub(super) fn full(&self) -> usize {
        (1 << self.term_bit.len()) - 1
    }

    /// Fewest satellites joining terminal subset `c` (`INF` above the budget).
    pub(super) fn cost(&self, c: usize) -> u8 {
        self.dp[c * self.n + c.trailing_zeros() as usize]
    }

    /// The global nodes of a cheapest tree for terminal subset `c`.
    pub(super) fn tree(&self, c: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut todo = vec![(c, c.trailing_zeros() as usize)];
        let n = self.n;
        while let Some((c, v)) = todo.pop() {
            out.push(self.global[v] as usize);
            let d = self.dp[c * n + v];
            if c.count_ones() == 1 && v == c.trailing_zeros() as usize {
                continue;
            }
            // A split at v?
            let low = c & c.wrapping_neg();
            let rest = c ^ low;
            let mut s = rest;
            let mut done = false;
            loop {
                s = s.wrapping_sub(1) & rest;
                let c1 = s | low;
                if c1 != c {
                    let c2 = c ^ c1;
                    let x =
                        self.dp[c1 * n + v] as u16 + self.dp[c2 * n + v] as u16 - self.w[v] as u16;
                    if x == d as u16 {
                        todo.push((c1, v));
                        todo.push((c2, v));
                        done = true;
                        break;
                    }
                }
                if s == 0 {
                    break;
                }
            }
            if done {
                continue;
            }
            let step = self.w[v];
            let prev = self.nbr[self.off[v] as usize..self.off[v + 1] as usize]
                .iter()
                .map(|&u| u as usize)
                .find(|&u| {
                    self.dp[c * n + u] != INF
                        && self.dp[c * n + u] + step == d
                        && (step == 1 || self.w[u] == 1)
                })
                .expect("a predecessor");
            todo.push((c, prev));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The global group mask of the terminal subset `c`, the terminals being the groups
/// `term_bit` (in order).
pub(super) fn global_mask(term_bit: &[usize], c: usize) -> u64 {
    bits(c as u64).fold(0, |m, i| m | 1 << term_bit[i])
}

/// Given the fewest satellites `costs[c]` of each subset `c` of the terminals `term_bit`
/// (`INF` when out of reach), the cheapest proper subset that reaches the threshold (and
/// holds the core, if any), with its cost: the first such subset in numeric order among the
/// cheapest.
pub(super) fn cheapest_subset(
    term_bit: &[usize],
    costs: &[u8],
    g: &Graph,
    threshold: u32,
) -> Option<(usize, u8)> {
    let full = costs.len().saturating_sub(1);
    let core = g.core.map(|c| 1u64 << c);
    let mut best: Option<(usize, u8)> = None;
    for (c, &cost) in costs.iter().enumerate().take(full).skip(1) {
        if cost == INF || best.is_some_and(|(_, b)| b <= cost) {
            continue;
        }
        let m = global_mask(term_bit, c);
        if core.is_some_and(|cb| m & cb == 0) {
            continue;
        }
        let value: u32 = bits(m).map(|b| g.groups[b].value).sum();
        if value >= threshold {
            best = Some((c, cost));
        }
    }
    best
}
