//! Every satellite layout of one building set.

use super::graph::{bits, Graph, INF};
use super::steiner::Dw;
use orrery_core::hex::Hex;

/// Enumerates the satellite layouts of one building set: every set of exactly its fewest
/// satellites that joins its groups. Connected sets are grown from the first group over the
/// hexes of some cheapest layout (those whose cheapest layout through them has that cost, from
/// [`Dw::run`]), each exactly once: a hex taken from the frontier is either added or banned
/// for the rest of that branch. A group is added as soon as a satellite touches it, and a
/// branch stops when the farthest missing group is out of reach of the satellites left.
#[derive(Default)]
pub(super) struct LayoutSearch {
    /// Terminals.
    pub(super) t: usize,
    /// Per local node: `FREE`, `FRONTIER`, `TAKEN` or `BANNED`.
    pub(super) state: Vec<u8>,
    /// `rows[i * n + v]`: fewest satellites from terminal `i` to local node `v`, `v` included.
    pub(super) rows: Vec<u8>,
    /// The frontier: free neighbours of the grown set, still to be decided.
    pub(super) frontier: Vec<u32>,
    /// Undo log: nodes that left `FREE`.
    pub(super) changed: Vec<u32>,
    /// Undo log: frontier nodes banned.
    pub(super) banned: Vec<u32>,
    /// Nodes still to add in [`LayoutSearch::take`].
    pub(super) todo: Vec<u32>,
    /// Satellites taken.
    pub(super) sats: Vec<u32>,
    /// Terminals joined (local bits).
    pub(super) joined: u64,
    /// Stack of frames of `t` entries: fewest further satellites to reach each terminal
    /// from the grown set.
    pub(super) need: Vec<u8>,
    /// Layouts found, as global nodes.
    pub(super) found: Vec<Vec<u32>>,
    /// Stop after this many layouts.
    pub(super) limit: usize,
}

pub(super) const FREE: u8 = 0;
pub(super) const FRONTIER: u8 = 1;
pub(super) const TAKEN: u8 = 2;
pub(super) const BANNED: u8 = 3;

impl LayoutSearch {
    /// The layouts (sorted satellite hexes, sorted) of the building set `dw` was last run on
    /// (terminals = region = the set, budget = `cost`, its fewest satellites, at least 1),
    /// with `rows` its region distances; at most `limit` of them.
    pub(super) fn run(
        &mut self,
        g: &Graph,
        dw: &Dw,
        rows: &[u8],
        cost: u8,
        limit: usize,
    ) -> Vec<Vec<Hex>> {
        let n = dw.n;
        let t = dw.term_bit.len();
        let total = g.nodes();
        let full = dw.full();
        self.t = t;
        self.limit = limit;
        self.found.clear();
        self.frontier.clear();
        self.changed.clear();
        self.banned.clear();
        self.sats.clear();
        // Only hexes of some cheapest layout are free.
        self.state.clear();
        self.state.extend((0..n).map(|v| {
            if v < t || dw.dp[full * n + v] == cost {
                FREE
            } else {
                BANNED
            }
        }));
        self.rows.clear();
        for &b in &dw.term_bit {
            let row = &rows[b * total..(b + 1) * total];
            self.rows
                .extend(dw.global[..n].iter().map(|&v| row[v as usize]));
        }
        self.need.clear();
        self.need.resize(t, INF);
        self.joined = 0;
        self.take(dw, 0, false);
        self.grow(dw, cost);
        let mut out: Vec<Vec<Hex>> = self
            .found
            .iter()
            .map(|layout| {
                let mut hexes: Vec<Hex> = layout
                    .iter()
                    .filter_map(|&v| g.space_hex(v as usize))
                    .collect();
                hexes.sort();
                hexes
            })
            .collect();
        out.sort();
        debug_assert!(
            out.windows(2).all(|w| w[0] != w[1]),
            "a layout listed twice"
        );
        out
    }

    /// Adds local node `v` to the grown set, with the groups it touches, and their free
    /// neighbours to the frontier. With `frame`, a new `need` frame is pushed first.
    pub(super) fn take(&mut self, dw: &Dw, v: usize, frame: bool) {
        let t = self.t;
        if frame {
            let top = self.need.len() - t;
            self.need.extend_from_within(top..);
        }
        let mut todo = std::mem::take(&mut self.todo);
        todo.push(v as u32);
        while let Some(v) = todo.pop() {
            let v = v as usize;
            self.state[v] = TAKEN;
            self.changed.push(v as u32);
            let top = self.need.len() - t;
            let w = dw.w[v];
            let n = dw.n;
            for i in 0..t {
                let d = self.rows[i * n + v].saturating_sub(w);
                let slot = &mut self.need[top + i];
                *slot = (*slot).min(d);
            }
            if v < t {
                self.joined |= 1 << v;
            }
            for &u in &dw.nbr[dw.off[v] as usize..dw.off[v + 1] as usize] {
                let u = u as usize;
                if self.state[u] != FREE {
                    continue;
                }
                if u < t {
                    // A group touched by the set joins it.
                    self.state[u] = TAKEN;
                    todo.push(u as u32);
                } else {
                    self.state[u] = FRONTIER;
                    self.changed.push(u as u32);
                    self.frontier.push(u as u32);
                }
            }
        }
        self.todo = todo;
    }

    /// Grows the set with at most `left` more satellites.
    pub(super) fn grow(&mut self, dw: &Dw, left: u8) {
        let t = self.t;
        let all = (1u64 << t) - 1;
        if self.joined == all {
            // Fewer satellites would join them all: exactly the fewest were used.
            self.found
                .push(self.sats.iter().map(|&v| dw.global[v as usize]).collect());
            return;
        }
        if left == 0 {
            return;
        }
        let top = self.need.len() - t;
        let reach = bits(all & !self.joined)
            .map(|i| self.need[top + i])
            .max()
            .unwrap_or(0);
        if reach > left {
            return;
        }
        let banned_mark = self.banned.len();
        while let Some(v) = self.frontier.pop() {
            let v = v as usize;
            // Take v.
            let (frontier_mark, changed_mark, joined) =
                (self.frontier.len(), self.changed.len(), self.joined);
            self.sats.push(v as u32);
            self.take(dw, v, true);
            self.grow(dw, left - 1);
            self.sats.pop();
            self.need.truncate(self.need.len() - t);
            self.joined = joined;
            for &u in &self.changed[changed_mark..] {
                self.state[u as usize] = FREE;
            }
            self.changed.truncate(changed_mark);
            self.frontier.truncate(frontier_mark);
            // Or ban it in the rest of this branch.
            self.state[v] = BANNED;
            self.banned.push(v as u32);
            if self.found.len() >= self.limit {
                break;
            }
        }
        // Back to the frontier as it was.
        while self.banned.len() > banned_mark {
            let v = self.banned.pop().expect("banned");
            self.state[v as usize] = FRONTIER;
            self.frontier.push(v);
        }
    }
}
