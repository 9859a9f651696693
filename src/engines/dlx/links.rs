//! Knuth's dancing links over any exact-cover matrix whose rows are known up front: the
//! nodes live in arrays built once (`u32` indexes, so 25x25 Sudoku's ~100,000 nodes fit),
//! and every search puts back all it took out, leaving the links as built.
//!
//! ```text
//! node 0          root of the header list
//! nodes 1..=C     column headers (column c has header c + 1)
//! then            each matrix row's nodes, contiguous: row r is
//!                 first[r]..first[r + 1], in a ring through left/right
//! ```
//!
//! All columns are primary (each must be covered exactly once), as in Sudoku, where every
//! cell takes one value and every unit holds every value once.

const ROOT: usize = 0;

/// How a search went: solutions counted to the limit, or the column on which the fixed
/// rows (the givens) collide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Covers {
    /// Exact covers found (at most the limit).
    Found(u64),
    /// Two fixed rows cover this column.
    Clash(usize),
}

/// An exact-cover matrix in dancing links, with the fixed-size scratch of its search.
pub(crate) struct Links {
    left: Box<[u32]>,
    right: Box<[u32]>,
    up: Box<[u32]>,
    down: Box<[u32]>,
    /// Header of each node's column.
    column: Box<[u32]>,
    /// Matrix row of each node (meaningless for headers).
    row: Box<[u32]>,
    /// Rows left in each column (indexed by header).
    size: Box<[u32]>,
    /// First node of each matrix row, and one past the last row's nodes at the end.
    first: Box<[u32]>,
    /// Chosen node per search depth.
    chosen: Box<[u32]>,
    /// Nodes of the fixed rows selected before a search.
    fixed: Box<[u32]>,
    /// Branches tried in the last search.
    guesses: u64,
    /// Branches a search may try.
    budget: u64,
    /// The last search stopped at its budget.
    spent: bool,
}

impl Links {
    /// The matrix with `columns` columns and `rows` (each the list of columns it covers);
    /// a cover never takes more than `depth` rows.
    pub(crate) fn new<R: IntoIterator<Item = usize>>(
        columns: usize,
        rows: impl IntoIterator<Item = R>,
        depth: usize,
    ) -> Links {
        let mut left: Vec<u32> = (0..=columns)
            .map(|h| if h == 0 { columns } else { h - 1 } as u32)
            .collect();
        let mut right: Vec<u32> = (0..=columns)
            .map(|h| if h == columns { 0 } else { h + 1 } as u32)
            .collect();
        let mut up: Vec<u32> = (0..=columns as u32).collect();
        let mut down = up.clone();
        let mut column = up.clone();
        let mut row_of = vec![0u32; columns + 1];
        let mut size = vec![0u32; columns + 1];
        let mut first = Vec::new();
        for (r, cols) in rows.into_iter().enumerate() {
            let start = left.len();
            first.push(start as u32);
            for col in cols {
                assert!(col < columns, "column {col} out of range");
                let (node, header) = (left.len(), col + 1);
                let last = up[header] as usize;
                down[last] = node as u32;
                up.push(last as u32);
                down.push(header as u32);
                up[header] = node as u32;
                size[header] += 1;
                column.push(header as u32);
                row_of.push(r as u32);
                left.push(node as u32 - 1);
                right.push(node as u32 + 1);
            }
            let end = left.len();
            assert!(end > start, "row {r} covers no column");
            left[start] = end as u32 - 1;
            right[end - 1] = start as u32;
        }
        first.push(left.len() as u32);
        Links {
            left: left.into(),
            right: right.into(),
            up: up.into(),
            down: down.into(),
            column: column.into(),
            row: row_of.into(),
            size: size.into(),
            first: first.into(),
            chosen: vec![0; depth + 1].into(),
            fixed: vec![0; depth + 1].into(),
            guesses: 0,
            budget: crate::values::search::Budget::DEFAULT.get(),
            spent: false,
        }
    }

    /// Branches tried in the last search.
    pub(crate) fn guesses(&self) -> u64 {
        self.guesses
    }

    /// Sets how many branches each later search may try.
    pub(crate) fn set_budget(&mut self, budget: crate::values::search::Budget) {
        self.budget = budget.get();
    }

    /// True when the last search stopped at its budget: the covers it counted are those
    /// found by then.
    pub(crate) fn spent(&self) -> bool {
        self.spent
    }

    /// Counts the exact covers that contain every row of `fixed` and not row `exclude`,
    /// up to `limit` (at least 1), calling `first` with the rows of the first one found
    /// (fixed rows excluded). Allocates nothing; the links are as built afterwards.
    pub(crate) fn search(
        &mut self,
        fixed: impl IntoIterator<Item = usize>,
        exclude: Option<usize>,
        limit: u64,
        mut first: impl FnMut(&mut dyn Iterator<Item = usize>),
    ) -> Covers {
        self.guesses = 0;
        self.spent = false;
        if let Some(r) = exclude {
            self.hide_row(r);
        }
        let mut placed = 0;
        let mut result = Covers::Found(0);
        for r in fixed {
            let start = self.first[r] as usize;
            let end = self.first[r + 1] as usize;
            if let Some(node) = (start..end).find(|&n| self.is_covered(self.column[n] as usize)) {
                result = Covers::Clash(self.column[node] as usize - 1);
                break;
            }
            self.cover(self.column[start] as usize);
            self.select(start);
            self.fixed[placed] = start as u32;
            placed += 1;
        }
        if result == Covers::Found(0) {
            result = Covers::Found(self.run(limit.max(1), &mut first));
        }
        for k in (0..placed).rev() {
            let node = self.fixed[k] as usize;
            self.unselect(node);
            self.uncover(self.column[node] as usize);
        }
        if let Some(r) = exclude {
            self.unhide_row(r);
        }
        result
    }

    /// True when column header `h` is out of the header list.
    fn is_covered(&self, h: usize) -> bool {
        self.right[self.left[h] as usize] as usize != h
    }

    fn cover(&mut self, header: usize) {
        let (l, r) = (self.left[header], self.right[header]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        let mut i = self.down[header] as usize;
        while i != header {
            let mut j = self.right[i] as usize;
            while j != i {
                let (u, d) = (self.up[j], self.down[j]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.size[self.column[j] as usize] -= 1;
                j = self.right[j] as usize;
            }
            i = self.down[i] as usize;
        }
    }

    fn uncover(&mut self, header: usize) {
        let mut i = self.up[header] as usize;
        while i != header {
            let mut j = self.left[i] as usize;
            while j != i {
                let (u, d) = (self.up[j], self.down[j]);
                self.size[self.column[j] as usize] += 1;
                self.down[u as usize] = j as u32;
                self.up[d as usize] = j as u32;
                j = self.left[j] as usize;
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[header], self.right[header]);
        self.right[l as usize] = header as u32;
        self.left[r as usize] = header as u32;
    }

    /// Takes node `node`'s row: covers the other columns of its row.
    fn select(&mut self, node: usize) {
        let mut j = self.right[node] as usize;
        while j != node {
            self.cover(self.column[j] as usize);
            j = self.right[j] as usize;
        }
    }

    fn unselect(&mut self, node: usize) {
        let mut j = self.left[node] as usize;
        while j != node {
            self.uncover(self.column[j] as usize);
            j = self.left[j] as usize;
        }
    }

    /// Takes matrix row `r` out of its columns (an exclusion), and puts it back.
    fn hide_row(&mut self, r: usize) {
        for node in self.first[r] as usize..self.first[r + 1] as usize {
            let (u, d) = (self.up[node], self.down[node]);
            self.down[u as usize] = d;
            self.up[d as usize] = u;
            self.size[self.column[node] as usize] -= 1;
        }
    }

    fn unhide_row(&mut self, r: usize) {
        for node in (self.first[r] as usize..self.first[r + 1] as usize).rev() {
            let (u, d) = (self.up[node], self.down[node]);
            self.size[self.column[node] as usize] += 1;
            self.down[u as usize] = node as u32;
            self.up[d as usize] = node as u32;
        }
    }

    /// Algorithm X with an explicit stack, the column with fewest rows first.
    fn run(&mut self, limit: u64, first: &mut dyn FnMut(&mut dyn Iterator<Item = usize>)) -> u64 {
        let mut solutions = 0;
        let mut depth = 0usize;
        loop {
            if self.right[ROOT] as usize == ROOT {
                solutions += 1;
                if solutions == 1 {
                    let (chosen, row) = (&self.chosen[..depth], &self.row);
                    first(&mut chosen.iter().map(|&n| row[n as usize] as usize));
                }
                if solutions >= limit {
                    self.unwind(depth);
                    return solutions;
                }
            } else {
                let mut best = self.right[ROOT] as usize;
                let mut h = self.right[best] as usize;
                while h != ROOT && self.size[best] > 1 {
                    if self.size[h] < self.size[best] {
                        best = h;
                    }
                    h = self.right[h] as usize;
                }
                if self.size[best] > 1 && self.guesses >= self.budget {
                    self.spent = true;
                    self.unwind(depth);
                    return solutions;
                }
                if self.size[best] > 0 {
                    self.cover(best);
                    let node = self.down[best] as usize;
                    self.select(node);
                    self.chosen[depth] = node as u32;
                    depth += 1;
                    if self.size[best] > 1 {
                        self.guesses += 1;
                    }
                    continue;
                }
            }
            // Backtrack to the next row of the deepest column with one left.
            loop {
                if depth == 0 {
                    return solutions;
                }
                depth -= 1;
                let node = self.chosen[depth] as usize;
                self.unselect(node);
                let header = self.column[node] as usize;
                let next = self.down[node] as usize;
                if next != header && self.guesses >= self.budget {
                    self.spent = true;
                    self.uncover(header);
                    self.unwind(depth);
                    return solutions;
                }
                if next != header {
                    self.select(next);
                    self.chosen[depth] = next as u32;
                    depth += 1;
                    self.guesses += 1;
                    break;
                }
                self.uncover(header);
            }
        }
    }

    /// Undoes the selections of the first `depth` levels.
    fn unwind(&mut self, depth: usize) {
        for d in (0..depth).rev() {
            let node = self.chosen[d] as usize;
            self.unselect(node);
            self.uncover(self.column[node] as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's example matrix (Dancing Links, 2000): exactly one cover, rows 0, 3, 4.
    #[test]
    fn knuths_example_has_one_cover_and_the_links_come_back() {
        let rows: [&[usize]; 6] = [
            &[2, 4, 5],
            &[0, 3, 6],
            &[1, 2, 5],
            &[0, 3],
            &[1, 6],
            &[3, 4, 6],
        ];
        let mut links = Links::new(7, rows.iter().map(|r| r.iter().copied()), 7);
        let mut found = Vec::new();
        let covers = links.search([], None, 10, |rows| found.extend(rows));
        assert_eq!(covers, Covers::Found(1));
        found.sort_unstable();
        assert_eq!(found, [0, 3, 4]);
        // Fixing row 1 leaves no cover; fixing rows 0 and 2 clashes on column 2 or 5.
        assert_eq!(links.search([1], None, 10, |_| ()), Covers::Found(0));
        assert!(matches!(
            links.search([0, 2], None, 10, |_| ()),
            Covers::Clash(2 | 5)
        ));
        // Excluding row 3 leaves none; and the first search's answer is back.
        assert_eq!(links.search([], Some(3), 10, |_| ()), Covers::Found(0));
        assert_eq!(links.search([], None, 10, |_| ()), Covers::Found(1));
    }
}
