//! Tables baked into generated code (relations, rays, patterns, coordinates) and the set
//! operations built on them: neighbourhoods, steps, groups, `between` and `brackets`, by
//! table look-ups or by shifts of whole sets.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use rulestone_ir::{words_for, CellRef, CellSet, SetExpr, SetId, NO_CELL};

use crate::sets::cell;
use crate::{hex_literal, lit, signed, Emitter};

/// Which neighbourhood test a set makes over a relation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Around {
    /// Cells all of whose neighbours lie in the set.
    All,
    /// Cells none of whose neighbours lie in the set.
    None,
    /// Cells some neighbour of which lies in the set.
    Any,
}

/// What a relation's shifts compute over a set (see [`Emitter::shifted`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shifted {
    /// Cells all of whose neighbours lie in the set.
    All,
    /// The set's neighbours.
    Step,
    /// Cells some neighbour of which lies in the set.
    Any,
}

/// A signed shift as an argument.
fn shift_arg(k: i32) -> TokenStream {
    signed(i64::from(k))
}

impl Emitter<'_> {
    /// Words per cell set in the generated code: the fewest of 1, 2 and the engine's width
    /// that hold the board, so that a small board's set operations are one or two
    /// instructions and its position value small.
    pub(crate) fn set_words(&self) -> usize {
        words_for(self.p.board.len())
    }

    pub(crate) fn capacity(&self) -> usize {
        64 * self.set_words()
    }

    /// Piece kinds the position value keeps sets for (none for a game of one kind).
    pub(crate) fn kinds(&self) -> usize {
        if self.p.pieces.len() == 1 {
            0
        } else {
            self.p.pieces.len()
        }
    }

    /// A set of the last cell index the generated sets have room for: padding that no
    /// position holds on a board with fewer cells.
    fn never_held(&self) -> CellSet {
        let mut s = CellSet::EMPTY;
        s.insert(self.capacity() - 1);
        s
    }

    /// A constant set in the generated set type `S` (cells past its room are dropped; the
    /// board has none).
    pub(crate) fn set_literal(&self, s: CellSet) -> TokenStream {
        let words = s.words()[..self.set_words()]
            .iter()
            .map(|w| hex_literal(*w, 0, ""))
            .collect::<Vec<_>>();
        quote!(S::from_words([#(#words),*]))
    }

    /// Coordinate tables, one per axis of the board.
    pub(crate) fn axis_tables(&self) -> TokenStream {
        let axes = self.p.board.axes.len();
        let tables = self.p.board.axes.iter().enumerate().map(|(a, name)| {
            let column: Vec<TokenStream> = (0..self.p.board.len())
                .map(|c| signed(i64::from(self.p.board.coords[c * axes + a])))
                .collect();
            let doc = format!(" Coordinate `{name}` of each cell.");
            let (table, len) = (format_ident!("AXIS{}", a), lit(column.len()));
            quote! {
                #[doc = #doc]
                static #table: [i32; #len] = [#(#column),*];
            }
        });
        quote!(#(#tables)*)
    }

    /// `shift`: every piece of the set is lifted, then put down on its cell's next cell along
    /// the relation's first ray (`set(cell, code)` spells one change). A constant set is
    /// unrolled into straight-line code; any other set walks its cells with the ray's table
    /// as a `match`.
    pub(crate) fn shift(
        &self,
        at: SetId,
        relation: u16,
        set: &dyn Fn(&TokenStream, &TokenStream) -> TokenStream,
    ) -> TokenStream {
        let next: &[u16] = self
            .p
            .relations
            .get(usize::from(relation))
            .and_then(|r| r.rays.first())
            .map_or(&[], |r| &r.next);
        let target = |c: usize| next.get(c).copied().filter(|&t| t != NO_CELL);
        if let SetExpr::Const(cells) = &self.p.sets[usize::from(at)] {
            let code = |c: usize| format_ident!("k{}", c);
            let lifts = cells.iter().map(|c| {
                let (k, c) = (code(c), lit(c));
                quote!(let #k = pos.code(#c);)
            });
            let clears = cells.iter().map(|c| {
                let k = code(c);
                let c = lit(c);
                let change = set(&quote!(#c), &quote!(0));
                quote!(if #k != 0 { #change })
            });
            let puts = cells.iter().filter_map(|c| {
                let t = lit(usize::from(target(c)?));
                let k = code(c);
                let change = set(&quote!(#t), &quote!(#k));
                Some(quote!(if #k != 0 { #change }))
            });
            let (lifts, clears) = (lifts.collect::<Vec<_>>(), clears.collect::<Vec<_>>());
            let puts = puts.collect::<Vec<_>>();
            return quote!(#(#lifts)* #(#clears)* #(#puts)*);
        }
        let arms = (0..next.len()).filter_map(|c| {
            let t = lit(usize::from(target(c)?));
            let c = lit(c);
            Some(quote!(#c => #t,))
        });
        let arms = arms.collect::<Vec<_>>();
        let f = self.set_fn(usize::from(at));
        let n = lit(next.len().max(1));
        let clear = set(&quote!(c), &quote!(0));
        let put = set(&quote!(to), &quote!(lifted[c]));
        let view = self.view_arg();
        quote! {
            let cells = #f(#view, &pos, &v, ALL, 0);
            let mut lifted = [0u8; #n];
            for c in cells.iter() {
                lifted[c] = pos.code(c);
                if lifted[c] != 0 {
                    #clear
                }
            }
            for c in cells.iter() {
                let to: usize = match c {
                    #(#arms)*
                    _ => continue,
                };
                if lifted[c] != 0 {
                    #put
                }
            }
        }
    }

    /// The most cells in a row along the vector of shift `k` (`has`: the cells with a next
    /// cell).
    fn longest_run(&self, k: i32, has: CellSet) -> i32 {
        (0..self.p.board.len())
            .map(|c| i32::try_from(ray_cells(c, k, has, false).len()).unwrap_or(i32::MAX))
            .max()
            .unwrap_or(0)
    }

    /// The number of the table `RAYn` of the cells after each cell along the vector of shift
    /// `k` (`has`: the cells with a next cell), or `back`wards, before it; registered for
    /// [`Emitter::ray_tables`].
    fn ray_table(&self, k: i32, has: CellSet, back: bool) -> usize {
        let mut rays = self.rays.borrow_mut();
        if let Some(n) = rays.iter().position(|&r| r == (k, has, back)) {
            return n;
        }
        rays.push((k, has, back));
        rays.len() - 1
    }

    /// The ray tables registered while the functions were built.
    pub(crate) fn ray_tables(&self) -> TokenStream {
        let cells = self.p.board.len();
        let rays = self.rays.borrow();
        let tables = rays.iter().enumerate().map(|(n, &(k, has, back))| {
            let rows: Vec<TokenStream> = (0..cells)
                .map(|c| self.set_literal(ray_cells(c, k, has, back)))
                .collect();
            let along = if back { "against" } else { "along" };
            let doc = format!(" The cells after each cell {along} shift {k}.");
            let (table, len) = (format_ident!("RAY{}", n), lit(cells));
            quote! {
                #[doc = #doc]
                static #table: [S; #len] = [#(#rows,)*];
            }
        });
        let tables = tables.collect::<Vec<_>>();
        quote!(#(#tables)*)
    }

    /// Each relation's neighbour table baked in as a constant (one per player when it is
    /// player-relative), with its inverse and the cells that have any entry in either: a
    /// neighbourhood test then touches only cells it can change, from whichever side is smaller.
    pub(crate) fn relation_tables(&self) -> TokenStream {
        let having = |t: &[CellSet]| {
            let mut h = CellSet::EMPTY;
            for (c, m) in t.iter().enumerate() {
                if !m.is_empty() {
                    h.insert(c);
                }
            }
            self.set_literal(h)
        };
        let table = |t: &[CellSet]| {
            let rows = t.iter().map(|m| self.set_literal(*m));
            quote!([#(#rows,)*])
        };
        let all = self.p.relations.iter().enumerate().map(|(r, rel)| {
            let tables = rel.tables();
            let n = rel.masks.len();
            let inverses: Vec<Vec<CellSet>> = tables
                .iter()
                .map(|t| {
                    let mut inv = vec![CellSet::EMPTY; n];
                    for (c, m) in t.iter().enumerate() {
                        for x in m.iter().filter(|&x| x < n) {
                            inv[x].insert(c);
                        }
                    }
                    inv
                })
                .collect();
            let doc = format!(
                " `{}`: neighbours per cell, cells with any, inverse, cells with any in the inverse.",
                rel.name
            );
            let (nl, kl) = (lit(n), lit(tables.len()));
            let fwd = tables.iter().map(|t| table(t));
            let fwd_has = tables.iter().map(|t| having(t));
            let inv = inverses.iter().map(|t| table(t));
            let inv_has = inverses.iter().map(|t| having(t));
            let names = ["R", "RH", "RI", "RIH"].map(|p| format_ident!("{}{}", p, r));
            let [rn, rh, ri, rih] = names;
            quote! {
                #[doc = #doc]
                static #rn: [[S; #nl]; #kl] = [#(#fwd),*];
                static #rh: [S; #kl] = [#(#fwd_has),*];
                static #ri: [[S; #nl]; #kl] = [#(#inv),*];
                static #rih: [S; #kl] = [#(#inv_has),*];
            }
        });
        let all = all.collect::<Vec<_>>();
        quote!(#(#all)*)
    }

    /// Each pattern's instances per cell baked in: `PI{p}[PO{p}[c]..PO{p}[c + 1]]` contain `c`;
    /// or, when every cell has a few, `PW{p}[c]`: a fixed row per cell, padded with a set that
    /// no position holds (so a test is a short unrolled loop, with no ranges to read).
    pub(crate) fn pattern_tables(&self) -> TokenStream {
        let all = self.p.patterns.iter().enumerate().map(|(i, pat)| {
            if let Some(width) = self.pattern_width(i) {
                let rows: Vec<TokenStream> = (0..self.p.board.len())
                    .map(|c| {
                        let (a, b) = (pat.offsets[c] as usize, pat.offsets[c + 1] as usize);
                        let mut row: Vec<TokenStream> = pat.instances[a..b]
                            .iter()
                            .map(|m| self.set_literal(*m))
                            .collect();
                        row.resize(width, self.set_literal(self.never_held()));
                        quote!([#(#row),*])
                    })
                    .collect();
                let doc = format!(
                    " Pattern `{}`: the instances holding each cell, padded with a set no position holds.",
                    pat.name
                );
                let (table, w, len) = (format_ident!("PW{}", i), lit(width), lit(rows.len()));
                return quote! {
                    #[doc = #doc]
                    static #table: [[S; #w]; #len] = [#(#rows,)*];
                };
            }
            let offsets: Vec<TokenStream> = pat
                .offsets
                .iter()
                .map(|o| {
                    let o = lit(*o as usize);
                    quote!(#o)
                })
                .collect();
            let instances: Vec<TokenStream> =
                pat.instances.iter().map(|m| self.set_literal(*m)).collect();
            let doc = format!(" Pattern `{}`: instances by cell.", pat.name);
            let (po, pi) = (format_ident!("PO{}", i), format_ident!("PI{}", i));
            let (no, ni) = (lit(offsets.len()), lit(instances.len()));
            quote! {
                #[doc = #doc]
                static #po: [u32; #no] = [#(#offsets),*];
                static #pi: [S; #ni] = [#(#instances,)*];
            }
        });
        let all = all.collect::<Vec<_>>();
        quote!(#(#all)*)
    }

    /// The row length of pattern `i`'s fixed table (`PW`), if it has one: when no cell lies in
    /// more than a few instances and the board leaves a cell index free for the padding.
    pub(crate) fn pattern_width(&self, i: usize) -> Option<usize> {
        const MOST_PER_CELL: usize = 4;
        let pat = &self.p.patterns[i];
        let width = pat
            .offsets
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()?;
        (width <= MOST_PER_CELL && self.p.board.len() < self.capacity()).then_some(width.max(1))
    }

    /// Which of a relation's baked tables applies: the mover's when it is player-relative.
    fn side(&self, relation: u16) -> TokenStream {
        if self.p.relations[usize::from(relation)]
            .per_player
            .is_empty()
        {
            quote!(0)
        } else {
            quote!(usize::from(e.rt_mover()))
        }
    }

    /// The relation's tables (one, or one per player) split by cell-index offset, when each
    /// has few offsets: then `c`'s neighbours are `c + k` for the cells `has` of each offset
    /// `k`, and a whole set moves along the relation with a few shifts instead of a loop.
    fn shift_forms(&self, relation: u16) -> Option<Vec<Vec<(i32, CellSet)>>> {
        const MOST_SHIFTS: usize = 16;
        let rel = &self.p.relations[usize::from(relation)];
        rel.tables()
            .iter()
            .map(|t| {
                let mut by: Vec<(i32, CellSet)> = Vec::new();
                for (c, m) in t.iter().enumerate() {
                    for n in m.iter() {
                        let k = i32::try_from(n).ok()? - i32::try_from(c).ok()?;
                        match by.iter_mut().find(|(o, _)| *o == k) {
                            Some((_, has)) => has.insert(c),
                            None => {
                                let mut has = CellSet::EMPTY;
                                has.insert(c);
                                by.push((k, has));
                            }
                        }
                    }
                }
                (by.len() <= MOST_SHIFTS).then_some(by)
            })
            .collect()
    }

    /// Whether `step(relation, of)` reads the neighbour table rather than shifting: `of`
    /// holds at most one cell, and the relation takes more than one shift per side (one
    /// table read beats several shifts and masks).
    fn looked_up(&self, relation: u16, of: SetId) -> bool {
        self.at_most_one_cell(of)
            && self
                .shift_forms(relation)
                .is_none_or(|sides| sides.iter().any(|by| by.len() > 1))
    }

    fn at_most_one_cell(&self, set: SetId) -> bool {
        match self.p.sets[usize::from(set)] {
            SetExpr::Single(_) | SetExpr::First(_) => true,
            SetExpr::Inter(a, b) => self.at_most_one_cell(a) || self.at_most_one_cell(b),
            SetExpr::Diff(a, _) => self.at_most_one_cell(a),
            SetExpr::Const(_)
            | SetExpr::Empty
            | SetExpr::Occupied
            | SetExpr::PlayerPieces(_)
            | SetExpr::Pieces { .. }
            | SetExpr::Union(..)
            | SetExpr::All { .. }
            | SetExpr::None { .. }
            | SetExpr::Any { .. }
            | SetExpr::Step { .. }
            | SetExpr::Group { .. }
            | SetExpr::StepDir { .. }
            | SetExpr::Line { .. }
            | SetExpr::Where { .. }
            | SetExpr::Between { .. }
            | SetExpr::Brackets { .. }
            | SetExpr::AxisCmp { .. }
            | SetExpr::AxisRows { .. }
            | SetExpr::AxisKey { .. }
            | SetExpr::Local(_)
            | SetExpr::Placed { .. } => false,
        }
    }

    /// An expression per side of the relation, chosen by the mover when it is player-relative.
    fn per_side(&self, relation: u16, sides: &[TokenStream]) -> TokenStream {
        if self.p.relations[usize::from(relation)]
            .per_player
            .is_empty()
            || sides.len() < 2
        {
            sides.first().cloned().unwrap_or_else(|| quote!(S::EMPTY))
        } else {
            let arms = sides.iter().enumerate().map(|(i, e)| {
                if i + 1 == sides.len() {
                    quote!(_ => #e,)
                } else {
                    let i = lit(i);
                    quote!(#i => #e,)
                }
            });
            quote!(match e.rt_mover() { #(#arms)* })
        }
    }

    /// `all`, `any` or `step` over a relation by shifts (see [`Self::shift_forms`]), for the
    /// set named `of`.
    fn shifted(&self, relation: u16, kind: Shifted, of: &str) -> Option<TokenStream> {
        let all = self.p.board.all;
        let of = format_ident!("{}", of);
        let sides: Vec<TokenStream> = self
            .shift_forms(relation)?
            .iter()
            .map(|by| {
                let mut terms = by.iter().map(|(k, has)| match kind {
                    Shifted::All => {
                        let (h, back) = (self.set_literal(all - *has), shift_arg(-k));
                        quote!((#h | #of.shifted(#back)))
                    }
                    Shifted::Step => {
                        let (h, k) = (self.set_literal(*has), shift_arg(*k));
                        quote!((#of & #h).shifted(#k))
                    }
                    Shifted::Any => {
                        let (h, back) = (self.set_literal(*has), shift_arg(-k));
                        quote!((#of.shifted(#back) & #h))
                    }
                });
                let Some(first) = terms.next() else {
                    return match kind {
                        Shifted::All => quote!(ALL),
                        Shifted::Step | Shifted::Any => quote!(S::EMPTY),
                    };
                };
                terms.fold(first, |acc, t| match kind {
                    Shifted::All => quote!(#acc & #t),
                    Shifted::Step | Shifted::Any => quote!(#acc | #t),
                })
            })
            .collect();
        Some(self.per_side(relation, &sides))
    }

    /// Code binding `ring` to the neighbours along `relation` of the cells of `frontier`: the
    /// step by which `group` and `connected` grow a region.
    pub(crate) fn ring(&self, relation: u16) -> TokenStream {
        match self.shifted(relation, Shifted::Step, "frontier") {
            Some(x) => quote!(let ring = #x;),
            None => {
                let (table, side) = (format_ident!("R{}", relation), self.side(relation));
                quote! {
                    let masks = &#table[#side];
                    let mut ring = S::EMPTY;
                    for c in frontier.iter() {
                        ring |= masks[c];
                    }
                }
            }
        }
    }

    /// `step(relation, of)`: by a table look-up, by shifts or by a walk over the set's cells.
    pub(crate) fn step(&self, relation: u16, of: SetId) -> TokenStream {
        let (table, side) = (format_ident!("R{}", relation), self.side(relation));
        let f = self.set_fn(usize::from(of));
        if self.looked_up(relation, of) {
            if let SetExpr::Single(c) = self.p.sets[usize::from(of)] {
                let c = cell(c, &quote!(cand));
                return quote!(#table[#side].get(usize::from(#c)).copied().unwrap_or(S::EMPTY) & d);
            }
            return quote! {
                let of = #f(e, pos, v, ALL, cand);
                let x = match of.iter().next() {
                    Some(c) => #table[#side][c],
                    None => S::EMPTY,
                };
                x & d
            };
        }
        match self.shifted(relation, Shifted::Step, "of") {
            Some(x) => quote! {
                let of = #f(e, pos, v, ALL, cand);
                let x = #x;
                x & d
            },
            None => quote! {
                let masks = &#table[#side];
                let of = #f(e, pos, v, ALL, cand);
                let mut out = S::EMPTY;
                for c in of.iter() {
                    out |= masks[c];
                }
                out & d
            },
        }
    }

    /// The relation's vectors as cell-index shifts ([`rulestone_ir::Ray::shift`]), per side:
    /// the vectors each player moves along when some vector is one player's, else all.
    fn ray_shifts(&self, relation: u16) -> Option<Vec<Vec<(i32, CellSet)>>> {
        let rel = &self.p.relations[usize::from(relation)];
        let sides: Vec<Option<u8>> = if rel.per_player.is_empty() {
            vec![None]
        } else {
            vec![Some(0), Some(1)]
        };
        sides
            .iter()
            .map(|side| {
                rel.rays
                    .iter()
                    .filter(|r| side.is_none_or(|p| r.owner.is_none_or(|o| o == p)))
                    .map(|r| r.shift)
                    .collect()
            })
            .collect()
    }

    /// `{ let mut out = S::EMPTY; ... out }` per side of the relation, with `per_ray`'s
    /// code for each vector `(k, has)` (see [`Self::ray_shifts`]), chosen by the mover.
    fn union_over_rays(
        &self,
        relation: u16,
        per_ray: impl Fn(i32, CellSet) -> TokenStream,
    ) -> TokenStream {
        let sides: Vec<TokenStream> = self
            .ray_shifts(relation)
            .unwrap_or_default()
            .iter()
            .map(|rays| {
                let body = rays
                    .iter()
                    .map(|(k, has)| per_ray(*k, *has))
                    .collect::<Vec<_>>();
                quote!({
                    let mut out = S::EMPTY;
                    #(#body)*
                    out
                })
            })
            .collect();
        self.per_side(relation, &sides)
    }

    /// The name of `CellSet::first` or `CellSet::last`.
    fn end_of(first: bool) -> proc_macro2::Ident {
        if first {
            format_ident!("first")
        } else {
            format_ident!("last")
        }
    }

    /// `brackets(R, run, end)` when `end` holds one cell `f`: per vector, the cells on the ray
    /// back from `f` up to the first one outside `run` (the nearest, highest or lowest by the
    /// shift's sign, of the ray's cells outside `run`) but the one next to `f`, by ray tables
    /// and no loop. `None` when the tables would be large (sets of more than two words).
    fn brackets_from_cell(&self, relation: u16) -> Option<TokenStream> {
        if self.set_words() > 2 {
            return None;
        }
        let out = self.union_over_rays(relation, |k, has| {
            let ray = format_ident!("RAY{}", self.ray_table(k, has, true));
            let first = Self::end_of(k <= 0);
            quote! {
                let ray = #ray[f];
                if let Some(next) = ray.#first() {
                    let reach = match (ray - run).#first() {
                        Some(stop) => ray - #ray[stop],
                        None => ray,
                    };
                    out |= reach & #ray[next];
                }
            }
        });
        Some(out)
    }

    /// `brackets(R, run, end)`: by shifts where the relation's vectors are shifts, else by the
    /// relation's own walk.
    pub(crate) fn brackets(&self, relation: u16, run: SetId, end: SetId) -> TokenStream {
        let (run_f, end_f) = (self.set_fn(usize::from(run)), self.set_fn(usize::from(end)));
        if self.ray_shifts(relation).is_some() {
            return self.brackets_by_shifts(relation, run, end);
        }
        let r = lit(usize::from(relation));
        quote! {
            let run = #run_f(e, pos, v, ALL, cand);
            let end = #end_f(e, pos, v, ALL, cand);
            e.program().relations[#r].brackets(e.rt_mover(), d, run, end)
        }
    }

    /// `brackets(R, run, end)` by shifts: per vector, the closed runs are grown backwards from
    /// `end` through `run` until they stop growing, and a cell brackets when its next cell
    /// starts one. A run stops at the first cell outside `run`, so only `end - run` closes it.
    fn brackets_by_shifts(&self, relation: u16, run: u16, end: u16) -> TokenStream {
        let fill = self.union_over_rays(relation, |k, has| {
            let back = shift_arg(-k);
            let longest = self.longest_run(k, has);
            let has = self.set_literal(has);
            // Doubling steps (1, 2, 4, ... cells, each only over cells of `on`) reach as far
            // as the longest line along the vector, with no loop to mispredict.
            let mut grow = quote!(let mut p = on;);
            let mut step = 1i32;
            while (2 * step - 1) < longest {
                let by = shift_arg(-k * step);
                grow.extend(quote! {
                    x |= p & x.shifted(#by);
                    p &= p.shifted(#by);
                });
                step *= 2;
            }
            let by = shift_arg(-k * step);
            grow.extend(quote!(x |= p & x.shifted(#by);));
            quote! {
                let on = run & #has;
                let mut x = end.shifted(#back) & on;
                if !x.is_empty() {
                    #grow
                    out |= x.shifted(#back) & #has;
                }
            }
        });
        // A single cell (`end` a piece's cell, or the one cell a set holds in play) takes
        // the ray tables.
        let out = match self.brackets_from_cell(relation) {
            Some(rays) if self.at_most_one_cell(end) => quote! {
                match end.first() {
                    Some(f) => #rays,
                    None => S::EMPTY,
                }
            },
            Some(rays) => quote! {
                if end.len() == 1 {
                    let f = end.first().unwrap_or(0);
                    let out = #rays;
                    out
                } else {
                    #fill
                }
            },
            None => fill,
        };
        let (run_f, end_f) = (self.set_fn(usize::from(run)), self.set_fn(usize::from(end)));
        quote! {
            let run = #run_f(e, pos, v, ALL, cand);
            let end = #end_f(e, pos, v, ALL, cand) - run;
            let out = #out;
            out & d
        }
    }

    /// `between(R, from, run, end)`: by shifts where the relation's vectors are shifts, else
    /// by the relation's own walk.
    pub(crate) fn between(
        &self,
        relation: u16,
        from: CellRef,
        run: SetId,
        end: SetId,
    ) -> TokenStream {
        if self.ray_shifts(relation).is_some() {
            return self.between_by_shifts(relation, from, run, end);
        }
        let (run_f, end_f) = (self.set_fn(usize::from(run)), self.set_fn(usize::from(end)));
        let (r, from) = (lit(usize::from(relation)), cell(from, &quote!(cand)));
        quote! {
            let run = #run_f(e, pos, v, ALL, cand);
            let end = #end_f(e, pos, v, ALL, cand);
            e.program().relations[#r].between(e.rt_mover(), usize::from(#from), run, end) & d
        }
    }

    /// `between(R, from, run, end)` by shifts: per vector, the cells of `run` from `from` on,
    /// when the first cell after them is one of `end`. On sets of at most two words by ray
    /// tables (the first cell outside `run` is the lowest or highest by the shift's sign);
    /// otherwise by a walk of one cell at a time.
    fn between_by_shifts(&self, relation: u16, from: CellRef, run: u16, end: u16) -> TokenStream {
        let (run_f, end_f) = (self.set_fn(usize::from(run)), self.set_fn(usize::from(end)));
        let from = cell(from, &quote!(cand));
        if self.set_words() <= 2 {
            let out = self.union_over_rays(relation, |k, has| {
                let ray = format_ident!("RAY{}", self.ray_table(k, has, false));
                let first = Self::end_of(k > 0);
                quote! {
                    let ray = #ray.get(f).copied().unwrap_or(S::EMPTY);
                    if let Some(stop) = (ray - run).#first() {
                        if end.contains(stop) {
                            out |= ray - #ray[stop] - S::single(stop);
                        }
                    }
                }
            });
            return quote! {
                let run = #run_f(e, pos, v, ALL, cand);
                let end = #end_f(e, pos, v, ALL, cand);
                let f = usize::from(#from);
                let out = #out;
                out & d
            };
        }
        let out = self.union_over_rays(relation, |k, has| {
            let (has, k) = (self.set_literal(has), shift_arg(k));
            quote! {
                let mut line = S::EMPTY;
                let mut at = (start & #has).shifted(#k);
                while at.intersects(&run) {
                    line |= at;
                    at = (at & #has).shifted(#k);
                }
                if !line.is_empty() && at.intersects(&end) {
                    out |= line;
                }
            }
        });
        quote! {
            let run = #run_f(e, pos, v, ALL, cand);
            let end = #end_f(e, pos, v, ALL, cand);
            let mut start = S::EMPTY;
            start.insert(usize::from(#from));
            let out = #out;
            out & d
        }
    }

    /// `all`, `none` or `any` over a relation. Cells without neighbours are decided at once
    /// (they pass `all` and `none`, fail `any`); for `none` and `any` the rest is computed from
    /// the set's side (union of inverse neighbourhoods) when that side has fewer cells.
    pub(crate) fn neighbourhood(&self, relation: u16, of: u16, kind: Around) -> TokenStream {
        let of_f = self.set_fn(usize::from(of));
        let shift_kind = if kind == Around::All {
            Shifted::All
        } else {
            Shifted::Any
        };
        if let Some(x) = self.shifted(relation, shift_kind, "of") {
            let apply = match kind {
                Around::None => quote!(d - x),
                Around::All | Around::Any => quote!(d & x),
            };
            return quote! {
                let of = #of_f(e, pos, v, ALL, cand);
                let x = #x;
                #apply
            };
        }
        let t = self.side(relation);
        let (r, rh) = (
            format_ident!("R{}", relation),
            format_ident!("RH{}", relation),
        );
        let (ri, rih) = (
            format_ident!("RI{}", relation),
            format_ident!("RIH{}", relation),
        );
        let head = quote! {
            let of = #of_f(e, pos, v, ALL, cand);
            let near = d & #rh[#t];
            let masks = &#r[#t];
        };
        let forward = |keep: TokenStream| {
            quote! {
                for c in near.iter() {
                    if #keep {
                        out.insert(c);
                    }
                }
            }
        };
        let inverse = quote! {
            let mut seen = S::EMPTY;
            for x in reach.iter() {
                seen |= #ri[#t][x];
            }
        };
        match kind {
            Around::All => {
                let forward = forward(quote!(masks[c].is_subset(&of)));
                quote!(#head let mut out = d - near; #forward out)
            }
            Around::None => {
                let forward = forward(quote!(!masks[c].intersects(&of)));
                quote! {
                    #head
                    let reach = of & #rih[#t];
                    let mut out = d - near;
                    if near.len() <= reach.len() {
                        #forward
                    } else {
                        #inverse
                        out |= near - seen;
                    }
                    out
                }
            }
            Around::Any => {
                let forward = forward(quote!(masks[c].intersects(&of)));
                quote! {
                    #head
                    let reach = of & #rih[#t];
                    let mut out = S::EMPTY;
                    if near.len() <= reach.len() {
                        #forward
                    } else {
                        #inverse
                        out = near & seen;
                    }
                    out
                }
            }
        }
    }
}

/// The cells after `c` along the vector of shift `k` (`has`: the cells with a next cell), or
/// `back`wards, before it.
fn ray_cells(c: usize, k: i32, has: CellSet, back: bool) -> CellSet {
    let mut ray = CellSet::EMPTY;
    let mut at = c;
    loop {
        // Forwards from a cell with a next one; backwards to one whose next cell is this.
        let next = at.checked_add_signed(if back { -k } else { k } as isize);
        let Some(next) = next.filter(|&n| has.contains(if back { n } else { at })) else {
            break;
        };
        ray.insert(next);
        at = next;
    }
    ray
}
