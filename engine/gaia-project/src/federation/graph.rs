//! The search graph of one player's position: building groups, the space hexes that may carry
//! a satellite, their adjacency and the distances between them.

use super::model::{FedInput, HexSet};
use orrery_core::hex::{Hex, DIRECTIONS};

/// Is the hex in or next to one of the federations?
pub(super) fn near_federation(federated: HexSet<'_>, h: Hex) -> bool {
    !federated.is_empty()
        && (federated.contains(&h) || h.neighbours().iter().any(|n| federated.contains(n)))
}

/// Is the sorted list of distinct hexes connected by hex adjacency?
pub(super) fn connected_sorted(hexes: &[Hex]) -> bool {
    let Some(&start) = hexes.first() else {
        return true;
    };
    let mut seen = vec![false; hexes.len()];
    seen[0] = true;
    let mut reached = 1;
    let mut stack = vec![start];
    while let Some(h) = stack.pop() {
        for n in h.neighbours() {
            if let Ok(i) = hexes.binary_search(&n) {
                if !seen[i] {
                    seen[i] = true;
                    reached += 1;
                    stack.push(n);
                }
            }
        }
    }
    reached == hexes.len()
}

/// The set bits of a mask, lowest first.
pub(super) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let b = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(b)
    })
}

pub(super) const NONE: u32 = u32::MAX;
pub(super) const INF: u8 = u8::MAX;

/// A connected cluster of the player's federation members.
pub(super) struct Comp {
    pub(super) hexes: Vec<Hex>,
    /// Its bit among the usable groups; `None` when it touches an existing federation.
    pub(super) bit: Option<usize>,
    /// For an unusable cluster, one of its hexes next to a federation.
    pub(super) touch: Option<Hex>,
}

/// A usable building group.
pub(super) struct Group {
    pub(super) hexes: Vec<Hex>,
    pub(super) value: u32,
}

/// The search graph: usable groups (nodes `0..k`, weight 0) and the space hexes that may
/// carry a satellite within the budget (nodes `k..`, weight 1).
pub(super) struct Graph {
    pub(super) comps: Vec<Comp>,
    pub(super) groups: Vec<Group>,
    pub(super) core: Option<usize>,
    /// Dense lookup over a bounding box: component id per cell.
    pub(super) q0: i32,
    pub(super) r0: i32,
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) cell_comp: Vec<u32>,
    /// The satellites the box leaves room for around the members (and a ring more).
    pub(super) reach: usize,
    /// Space hexes of nodes `k..`.
    pub(super) spaces: Vec<Hex>,
    /// Groups adjacent to each node (a group node holds its own bit).
    pub(super) touch: Vec<u64>,
    /// Adjacency, compressed rows.
    pub(super) off: Vec<u32>,
    pub(super) nbr: Vec<u32>,
    /// `dist[g * n + v]`: fewest satellites on a path from group `g` to node `v`, `v` included
    /// (`INF` for a group whose row was not asked for, see [`Graph::fill_rows`]).
    pub(super) dist: Vec<u8>,
}

impl Graph {
    /// The graph of a position with the distance rows of every group.
    pub(super) fn build(input: &FedInput, budget: usize) -> Graph {
        let mut g = Graph::without_rows(input, budget);
        g.fill_rows(g.all_mask());
        g
    }

    /// The graph of a position with no distance row yet ([`Graph::fill_rows`] adds them).
    pub(super) fn without_rows(input: &FedInput, budget: usize) -> Graph {
        let mut g = Graph::members(input, budget);
        g.add_spaces(input, budget);
        g
    }

    /// The building groups of a position (and the member clusters they come from), with no
    /// space hex yet ([`Graph::add_spaces`] adds them); its box holds every hex within
    /// `budget` satellites of a member.
    pub(super) fn members(input: &FedInput, budget: usize) -> Graph {
        let single = input.single_federation;
        // Federation members: usable buildings, and in single mode the federation itself.
        let mut members: Vec<Hex> = input
            .buildings
            .keys()
            .copied()
            .filter(|h| single || !input.federated.contains(h))
            .collect();
        if single {
            members.extend(
                input
                    .federated
                    .iter()
                    .copied()
                    .filter(|h| !input.buildings.contains_key(h)),
            );
        }
        members.sort();
        let (mut q0, mut r0, mut q1, mut r1) = (0, 0, -1, -1);
        if let Some(first) = members.first() {
            (q0, r0, q1, r1) = (first.q, first.r, first.q, first.r);
            for h in &members {
                q0 = q0.min(h.q);
                q1 = q1.max(h.q);
                r0 = r0.min(h.r);
                r1 = r1.max(h.r);
            }
        }
        let margin = budget as i32 + 2;
        let (q0, r0) = (q0 - margin, r0 - margin);
        let width = q1 + margin + 1 - q0;
        let height = r1 + margin + 1 - r0;
        let mut g = Graph {
            comps: Vec::new(),
            groups: Vec::new(),
            core: None,
            q0,
            r0,
            width: width.max(0),
            height: height.max(0),
            cell_comp: vec![NONE; (width.max(0) * height.max(0)) as usize],
            reach: budget,
            spaces: Vec::new(),
            touch: Vec::new(),
            off: Vec::new(),
            nbr: Vec::new(),
            dist: Vec::new(),
        };
        const MEMBER: u32 = NONE - 1;
        for &h in &members {
            let i = g.cell(h).expect("member inside the box");
            g.cell_comp[i] = MEMBER;
        }
        // Components of members.
        for &start in &members {
            let i = g.cell(start).expect("inside");
            if g.cell_comp[i] != MEMBER {
                continue;
            }
            let id = g.comps.len() as u32;
            g.cell_comp[i] = id;
            let mut hexes = vec![start];
            let mut k = 0;
            while k < hexes.len() {
                let h = hexes[k];
                k += 1;
                for n in h.neighbours() {
                    if let Some(j) = g.cell(n) {
                        if g.cell_comp[j] == MEMBER {
                            g.cell_comp[j] = id;
                            hexes.push(n);
                        }
                    }
                }
            }
            hexes.sort();
            let touch = if single {
                None
            } else {
                hexes
                    .iter()
                    .copied()
                    .find(|&h| near_federation(input.federated, h))
            };
            g.comps.push(Comp {
                hexes,
                bit: None,
                touch,
            });
        }
        // Usable groups: the core (single mode) first, then by position.
        let mut order: Vec<usize> = (0..g.comps.len())
            .filter(|&c| g.comps[c].touch.is_none())
            .collect();
        if single && !input.federated.is_empty() {
            let is_core = |c: &Comp| c.hexes.iter().any(|h| input.federated.contains(h));
            let cores: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&c| is_core(&g.comps[c]))
                .collect();
            if let Some(&first) = cores.first() {
                // Several pieces of one federation (not expected) act as one group.
                for &c in &cores[1..] {
                    let moved = std::mem::take(&mut g.comps[c].hexes);
                    for &h in &moved {
                        let j = g.cell(h).expect("inside");
                        g.cell_comp[j] = first as u32;
                    }
                    g.comps[first].hexes.extend(moved);
                }
                g.comps[first].hexes.sort();
                order.retain(|c| !cores[1..].contains(c));
                order.retain(|&c| c != first);
                order.insert(0, first);
                g.core = Some(0);
            }
        }
        for (bit, &c) in order.iter().enumerate().take(64) {
            g.comps[c].bit = Some(bit);
            let value = g.comps[c]
                .hexes
                .iter()
                .filter_map(|h| input.buildings.get(h))
                .sum();
            g.groups.push(Group {
                hexes: g.comps[c].hexes.clone(),
                value,
            });
        }
        g
    }

    /// Adds the space hexes within `budget` satellites of a group (numbered in the order the
    /// layers find them), their adjacency and empty distance rows. `budget` is at most the
    /// one the graph was made with ([`Graph::members`]; a larger one counts as that), so
    /// every hex looked at is inside the box with its neighbours.
    pub(super) fn add_spaces(&mut self, input: &FedInput, budget: usize) {
        let single = input.single_federation;
        let g = self;
        let budget = budget.min(g.reach);
        let k = g.groups.len();
        // Per cell of the box: a group's node, BAD (a member of an unusable cluster),
        // NONE (not looked at yet), REJECTED, or a space's node.
        const REJECTED: u32 = NONE - 1;
        const BAD: u32 = NONE - 2;
        let mut cell = vec![NONE; g.cell_comp.len()];
        for comp in &g.comps {
            for i in comp.hexes.iter().filter_map(|&h| g.cell(h)) {
                cell[i] = comp.bit.map_or(BAD, |b| b as u32);
            }
        }
        // The cell of each neighbour, as an offset, in the order of `Hex::neighbours`.
        let width = g.width as isize;
        let step: [isize; 6] = DIRECTIONS.map(|d| d.r as isize * width + d.q as isize);
        let (q0, r0) = (g.q0, g.r0);
        let hex_at = |i: usize| {
            let i = i as i32;
            Hex::new(q0 + i % g.width, r0 + i / g.width)
        };
        let near = |i: usize, d: isize| i.wrapping_add_signed(d);
        // Space hexes within `budget` satellites of a group.
        // Room for the usual few dozen hexes from the start.
        g.spaces.reserve(64);
        let mut frontier: Vec<usize> = Vec::with_capacity(64);
        let mut next: Vec<usize> = Vec::with_capacity(64);
        if budget > 0 {
            for grp in &g.groups {
                frontier.extend(grp.hexes.iter().filter_map(|&h| g.cell(h)));
            }
        }
        for _ in 0..budget {
            next.clear();
            for &c in &frontier {
                for d in step {
                    let i = near(c, d);
                    if cell[i] != NONE {
                        continue;
                    }
                    let h = hex_at(i);
                    // A satellite next to an unusable cluster would pull it in.
                    let usable = (input.space)(h)
                        && (single || !near_federation(input.federated, h))
                        && step.iter().all(|&e| cell[near(i, e)] != BAD);
                    if usable {
                        cell[i] = (k + g.spaces.len()) as u32;
                        g.spaces.push(h);
                        next.push(i);
                    } else {
                        cell[i] = REJECTED;
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
        }
        // Adjacency, in compressed rows: the edges in the order found, then sorted stably
        // by their first node (a row lists its neighbours in the order they were found).
        let n = k + g.spaces.len();
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(g.spaces.len() * 6);
        g.touch = vec![0; n];
        for (b, t) in g.touch.iter_mut().enumerate().take(k) {
            *t = 1 << b;
        }
        for (j, &h) in g.spaces.iter().enumerate() {
            let v = (k + j) as u32;
            let Some(c) = g.cell(h) else { continue };
            for d in step {
                let u = cell[near(c, d)];
                if (u as usize) < k {
                    if g.touch[v as usize] & (1 << u) == 0 {
                        g.touch[v as usize] |= 1 << u;
                        edges.push((v, u));
                        edges.push((u, v));
                    }
                } else if (u as usize) < n {
                    edges.push((v, u));
                }
            }
        }
        g.off = vec![0; n + 1];
        for &(v, _) in &edges {
            g.off[v as usize + 1] += 1;
        }
        for v in 0..n {
            g.off[v + 1] += g.off[v];
        }
        let mut fill: Vec<u32> = g.off[..n].to_vec();
        g.nbr = vec![0; edges.len()];
        for &(v, u) in &edges {
            g.nbr[fill[v as usize] as usize] = u;
            fill[v as usize] += 1;
        }
        g.dist = vec![INF; k * n];
    }

    /// Works out the distance rows of the groups of `groups` (see [`Graph::dist`]); the rows
    /// of the others stay unknown (`INF`).
    pub(super) fn fill_rows(&mut self, groups: u64) {
        let n = self.nodes();
        let k = self.groups.len();
        let mut queue: Vec<u32> = Vec::new();
        for s in bits(groups).take_while(|&s| s < k) {
            let d = &mut self.dist[s * n..(s + 1) * n];
            d[s] = 0;
            queue.clear();
            queue.push(s as u32);
            // Breadth-first by layers; groups (weight 0) are expanded in the same layer.
            let mut head = 0;
            while head < queue.len() {
                let v = queue[head] as usize;
                head += 1;
                for &u in &self.nbr[self.off[v] as usize..self.off[v + 1] as usize] {
                    let u = u as usize;
                    let w = u8::from(u >= k);
                    let nd = d[v].saturating_add(w);
                    if nd < d[u] {
                        d[u] = nd;
                        if w == 0 {
                            // A group reached: explore it before farther hexes.
                            queue.insert(head, u as u32);
                        } else {
                            queue.push(u as u32);
                        }
                    }
                }
            }
        }
    }

    /// An upper bound on the satellites joining exactly the groups of `terms`: attach the
    /// nearest missing group by a shortest path, repeatedly, using only hexes touching no other
    /// group. `None` when they cannot be joined that way at all.
    pub(super) fn greedy(&self, terms: u64) -> Option<u8> {
        let n = self.nodes();
        let k = self.groups.len();
        let mut in_tree = vec![false; n];
        let first = terms.trailing_zeros() as usize;
        in_tree[first] = true;
        let mut missing = terms & !(1 << first);
        let mut cost: u32 = 0;
        let mut dist = vec![u32::MAX; n];
        let mut prev = vec![NONE; n];
        let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
        while missing != 0 {
            dist.fill(u32::MAX);
            queue.clear();
            for v in 0..n {
                if in_tree[v] {
                    dist[v] = 0;
                    queue.push_back(v);
                }
            }
            let mut reached = None;
            while let Some(v) = queue.pop_front() {
                if v < k && missing & (1 << v) != 0 {
                    reached = Some(v);
                    break;
                }
                for &u in &self.nbr[self.off[v] as usize..self.off[v + 1] as usize] {
                    let u = u as usize;
                    if u >= k && self.touch[u] & !terms != 0 || u < k && terms & (1 << u) == 0 {
                        continue;
                    }
                    let w = u32::from(u >= k);
                    if dist[v] + w < dist[u] {
                        dist[u] = dist[v] + w;
                        prev[u] = v as u32;
                        if w == 0 {
                            queue.push_front(u);
                        } else {
                            queue.push_back(u);
                        }
                    }
                }
            }
            let g = reached?;
            cost += dist[g];
            missing &= !(1 << g);
            let mut v = g;
            while !in_tree[v] {
                in_tree[v] = true;
                v = prev[v] as usize;
            }
        }
        Some(cost.min(INF as u32 - 1) as u8)
    }

    /// Distance rows (as `dist`) from each group of `terms` within the region of exactly those
    /// groups: other groups and the hexes touching them are impassable. Rows of other groups
    /// are left as they are.
    pub(super) fn region_rows(&self, terms: u64, rows: &mut Vec<u8>) {
        let n = self.nodes();
        let k = self.groups.len();
        rows.resize(k * n, INF);
        let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
        for s in bits(terms) {
            let d = &mut rows[s * n..(s + 1) * n];
            d.fill(INF);
            d[s] = 0;
            queue.clear();
            queue.push_back(s);
            while let Some(v) = queue.pop_front() {
                for &u in &self.nbr[self.off[v] as usize..self.off[v + 1] as usize] {
                    let u = u as usize;
                    let blocked = if u < k {
                        terms & (1 << u) == 0
                    } else {
                        self.touch[u] & !terms != 0
                    };
                    if blocked {
                        continue;
                    }
                    let w = u8::from(u >= k);
                    let nd = d[v].saturating_add(w);
                    if nd < d[u] {
                        d[u] = nd;
                        if w == 0 {
                            queue.push_front(u);
                        } else {
                            queue.push_back(u);
                        }
                    }
                }
            }
        }
    }

    /// The fewest satellites joining the groups of `terms` (at least two) given distance
    /// rows: exact for two or three groups (the best meeting point of three shortest paths)
    /// when `exact` is set; otherwise the largest such value over the pairs and triples, a lower
    /// bound. `INF` when some pair cannot be joined.
    pub(super) fn joins(&self, terms: u64, rows: &[u8], exact: bool) -> u8 {
        let n = self.nodes();
        let k = self.groups.len();
        let t: Vec<usize> = bits(terms).collect();
        let mut best = 0u8;
        for (i, &a) in t.iter().enumerate() {
            for &b in &t[i + 1..] {
                best = best.max(rows[a * n + b]);
            }
        }
        if best == INF || t.len() < 3 || (exact && t.len() > 3) {
            return best;
        }
        for (i, &a) in t.iter().enumerate() {
            for (j, &b) in t.iter().enumerate().skip(i + 1) {
                for &c in &t[j + 1..] {
                    let (ra, rb, rc) = (
                        &rows[a * n..a * n + n],
                        &rows[b * n..b * n + n],
                        &rows[c * n..c * n + n],
                    );
                    let mut m = u16::MAX;
                    for v in 0..n {
                        let sum = ra[v] as u16 + rb[v] as u16 + rc[v] as u16;
                        let sum = sum - 2 * u16::from(v >= k);
                        m = m.min(sum);
                    }
                    best = best.max(m.min(INF as u16) as u8);
                }
            }
        }
        best
    }

    pub(super) fn cell(&self, h: Hex) -> Option<usize> {
        let (x, y) = (h.q - self.q0, h.r - self.r0);
        (x >= 0 && y >= 0 && x < self.width && y < self.height)
            .then(|| (y * self.width + x) as usize)
    }

    /// The member component at a hex.
    pub(super) fn comp_at(&self, h: Hex) -> Option<u32> {
        self.cell(h)
            .map(|i| self.cell_comp[i])
            .filter(|&c| (c as usize) < self.comps.len())
    }

    pub(super) fn nodes(&self) -> usize {
        self.groups.len() + self.spaces.len()
    }

    pub(super) fn all_mask(&self) -> u64 {
        let k = self.groups.len();
        if k >= 64 {
            u64::MAX
        } else {
            (1u64 << k) - 1
        }
    }

    /// Fewest satellites connecting two groups (a lower bound for any federation with both).
    pub(super) fn pair(&self, a: usize, b: usize) -> u8 {
        self.dist[a * self.nodes() + b]
    }

    pub(super) fn space_hex(&self, node: usize) -> Option<Hex> {
        node.checked_sub(self.groups.len()).map(|j| self.spaces[j])
    }

    /// The power value of a set of groups.
    pub(super) fn value_of(&self, mask: u64) -> u32 {
        bits(mask).map(|b| self.groups[b].value).sum()
    }

    pub(super) fn buildings_of(&self, mask: u64) -> Vec<Hex> {
        let mut v: Vec<Hex> = bits(mask)
            .flat_map(|b| self.groups[b].hexes.iter().copied())
            .collect();
        v.sort();
        v
    }

    /// The hexes of a set of groups split into buildings (those in [`FedInput::buildings`])
    /// and the existing federation's satellites (the others, only found in the core), both
    /// sorted: [`Federation::buildings`] and [`Federation::old_satellites`].
    pub(super) fn members_of(&self, mask: u64, input: &FedInput) -> (Vec<Hex>, Vec<Hex>) {
        self.buildings_of(mask)
            .into_iter()
            .partition(|h| input.buildings.contains_key(h))
    }
}
