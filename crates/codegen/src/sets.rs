//! Sets, integers and conditions: one small function each (`sN`, `iN`, `bN`), which the
//! compiler inlines, and the cell, player and direction values they read.

use std::collections::HashMap;
use std::ops::Range;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use rulestone_ir::{BoolExpr, CellRef, CmpOp, DirExpr, IntExpr, IntId, PlayerRef, SetExpr, SetId};

use crate::tables::Around;
use crate::{lit, signed, Call, Emitter};

/// A cell value; `cand` names the candidate of a `where` filter.
pub(crate) fn cell(c: CellRef, cand: &TokenStream) -> TokenStream {
    match c {
        CellRef::Var(v) => {
            let v = lit(usize::from(v));
            quote!(v[#v])
        }
        CellRef::Const(c) => {
            let c = Literal::u16_suffixed(c);
            quote!(#c)
        }
        CellRef::Candidate => cand.clone(),
        CellRef::Slot(s) => {
            let s = lit(usize::from(s));
            quote!(u16::try_from(pos.counters[#s]).unwrap_or(0))
        }
    }
}

/// A player value (`u8`); `cand` as in [`cell`].
pub(crate) fn player(p: PlayerRef, cand: &TokenStream) -> TokenStream {
    match p {
        PlayerRef::Mover => quote!(e.rt_mover()),
        PlayerRef::Opponent => quote!((1 - e.rt_mover())),
        PlayerRef::Const(i) => {
            let i = Literal::u8_suffixed(i);
            quote!(#i)
        }
        PlayerRef::Owner(c) => {
            let c = cell(c, cand);
            quote!(pos.owner(usize::from(#c)))
        }
    }
}

/// The name of an operator's variant (`CmpOp::Gt`, `IntOp::Add`), as its `Debug` spells it.
fn variant(op: &impl std::fmt::Debug) -> proc_macro2::Ident {
    format_ident!("{}", format!("{op:?}"))
}

/// `cand` inside expression functions.
fn cand() -> TokenStream {
    quote!(cand)
}

/// Whether expression function `i`, with call sites `sites` (indices into the recorded
/// calls, `owner` naming the function each was made in), is inlined into replay: its one call
/// is in `replay` or in a function that is. Callers are decided first (memoised in
/// `always`); expressions call each other without cycles.
fn inlined_into(
    i: usize,
    sites: &[Vec<usize>],
    owner: &[Option<usize>],
    replay: &Range<usize>,
    always: &mut [Option<bool>],
) -> bool {
    if let Some(known) = always[i] {
        return known;
    }
    let yes = match sites[i].as_slice() {
        [at] if replay.contains(at) => true,
        [at] => owner[*at].is_some_and(|o| inlined_into(o, sites, owner, replay, always)),
        _ => false,
    };
    always[i] = Some(yes);
    yes
}

/// An expression function's body, built, with the calls it made (a range of the recorded
/// calls).
struct ValueBody {
    kind: Kind,
    id: usize,
    body: TokenStream,
    calls: Range<usize>,
}

/// The three kinds of expression function: `sN`, `iN` and `bN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Set,
    Int,
    Bool,
}

/// Per set, integer and condition of a program, the first of the same kind whose function
/// would be the same, or itself. Lowering interns expressions by their structure, yet two
/// different expressions often generate the same code (two constant sets of equal cells, two
/// conditions on sets that turned out equal): a large game has thousands of these functions
/// and most are repeats, which would cost the Rust compiler most of a later `compile`.
#[derive(Default, PartialEq)]
pub(crate) struct Same {
    sets: Vec<usize>,
    ints: Vec<usize>,
    bools: Vec<usize>,
}

impl Same {
    fn of(&self, kind: Kind) -> &[usize] {
        match kind {
            Kind::Set => &self.sets,
            Kind::Int => &self.ints,
            Kind::Bool => &self.bools,
        }
    }

    /// The one `id` names: the first with the same function.
    fn first(&self, kind: Kind, id: usize) -> usize {
        self.of(kind).get(id).copied().unwrap_or(id)
    }

    /// The ids whose functions are emitted: each the first of its kind with its function.
    pub(crate) fn emitted(&self, kind: Kind) -> impl Iterator<Item = usize> + '_ {
        let firsts = self.of(kind);
        (0..firsts.len()).filter(move |&id| firsts[id] == id)
    }
}

/// Per item, the first item with the same text.
fn first_of_each(texts: impl Iterator<Item = String>) -> Vec<usize> {
    let mut first = std::collections::HashMap::new();
    texts
        .enumerate()
        .map(|(id, text)| *first.entry(text).or_insert(id))
        .collect()
}

impl Emitter<'_> {
    /// Finds [`Same`]: functions are the same when their bodies are, calls naming the first
    /// of each; merging two can make their callers the same, so this repeats until nothing
    /// merges (at most once per function, as each round that goes on merges at least one).
    pub(crate) fn merge_same(&mut self) {
        let (sets, ints, bools) = (self.p.sets.len(), self.p.ints.len(), self.p.bools.len());
        self.same = Same {
            sets: (0..sets).collect(),
            ints: (0..ints).collect(),
            bools: (0..bools).collect(),
        };
        for _ in 0..=sets + ints + bools {
            let next = Same {
                sets: first_of_each((0..sets).map(|id| self.set_body(id).to_string())),
                ints: first_of_each((0..ints).map(|id| self.int_body(id).to_string())),
                bools: first_of_each((0..bools).map(|id| self.bool_body(id).to_string())),
            };
            if next == self.same {
                return;
            }
            self.same = next;
        }
    }

    /// The name of the function that computes set `id`.
    pub(crate) fn set_fn(&self, id: usize) -> proc_macro2::Ident {
        format_ident!("s{}", self.value_call(Kind::Set, id))
    }

    /// The name of the function that computes integer `id`.
    pub(crate) fn int_fn(&self, id: usize) -> proc_macro2::Ident {
        format_ident!("i{}", self.value_call(Kind::Int, id))
    }

    /// The name of the function that computes condition `id`.
    pub(crate) fn bool_fn(&self, id: usize) -> proc_macro2::Ident {
        format_ident!("b{}", self.value_call(Kind::Bool, id))
    }

    /// The function emitted for expression `id`, its call recorded (every name asked for is
    /// called).
    fn value_call(&self, kind: Kind, id: usize) -> usize {
        let first = self.same.first(kind, id);
        self.calls.borrow_mut().push(Call::Value(kind, first));
        first
    }

    /// A call of set function `id` with domain `d`, inside expression functions.
    fn s_call(&self, id: SetId, d: &TokenStream) -> TokenStream {
        let f = self.set_fn(usize::from(id));
        quote!(#f(e, pos, v, #d, cand))
    }

    /// A call of integer function `id`, inside expression functions.
    fn i_call(&self, id: IntId) -> TokenStream {
        let f = self.int_fn(usize::from(id));
        quote!(#f(e, pos, v, cand))
    }

    /// A call of condition function `id`, inside expression functions.
    fn b_call(&self, id: u16) -> TokenStream {
        let f = self.bool_fn(usize::from(id));
        quote!(#f(e, pos, v, cand))
    }

    /// A direction value as a Rust expression (a `u8` vector index, 255 for none).
    /// `args` spells the arguments of an integer function here (`e, pos, v, cand` inside
    /// expression functions, `VIEW, &pos, &v, 0` in a walk or replay, where `VIEW` is
    /// [`Emitter::view_arg`]).
    pub(crate) fn dir_code(&self, relation: u16, d: &DirExpr, args: &TokenStream) -> TokenStream {
        let r = lit(usize::from(relation));
        match d {
            DirExpr::Var(v) => {
                let v = lit(usize::from(*v));
                quote!(u8::try_from(v[#v]).unwrap_or(255))
            }
            DirExpr::Neg(x) => {
                let i = self.dir_code(relation, x, args);
                quote!({
                    let i = #i;
                    e.program().relations[#r].opposite.get(usize::from(i)).copied().unwrap_or(255)
                })
            }
            DirExpr::Turn(x, k) => {
                let n = lit(self.p.relations[usize::from(relation)].rays.len().max(1));
                let i = self.dir_code(relation, x, args);
                let k = signed(i64::from(*k));
                quote!({
                    let i = #i;
                    if i == 255 {
                        255
                    } else {
                        (i64::from(i) + #k).rem_euclid(#n) as u8
                    }
                })
            }
            DirExpr::Index(i) => {
                let f = self.int_fn(usize::from(*i));
                quote!(e.program().relations[#r].turn(0, #f(#args)))
            }
            DirExpr::Mirror(x, axis) => {
                let i = self.dir_code(relation, x, args);
                let axis = lit(usize::from(*axis));
                quote!({
                    let i = #i;
                    e.program().relations[#r].mirrors[#axis].get(usize::from(i)).copied().unwrap_or(255)
                })
            }
        }
    }

    /// The type of the walk's host parameter `e`: for programs that can run on the position
    /// value alone, the [`View`] of whichever host generates (the walk changes nothing
    /// outside its copies of the position, so it reads one value the whole generation
    /// long); the engine itself for the others.
    ///
    /// [`View`]: rulestone_runtime::compiled::View
    pub(crate) fn walk_host(&self) -> TokenStream {
        if crate::runs_fast(self.p) {
            quote!(&View<'_>)
        } else {
            quote!(&mut Engine<'_>)
        }
    }

    /// What a walk or replay function passes expression functions: the walk's own `e` where
    /// that is a [`View`], else the host's view.
    ///
    /// [`View`]: rulestone_runtime::compiled::View
    pub(crate) fn view_arg(&self) -> TokenStream {
        if crate::runs_fast(self.p) && !self.replaying.get() {
            quote!(e)
        } else {
            quote!(&e.view())
        }
    }

    /// The generic parameters and host type of replay: any [`Host`] for programs that can run
    /// on the position value alone (the engine's apply logs every change on its trail), the
    /// engine itself for the others.
    ///
    /// [`Host`]: rulestone_runtime::compiled::Host
    pub(crate) fn replay_host(&self) -> (TokenStream, TokenStream) {
        if crate::runs_fast(self.p) {
            (quote!(<'p, H: Host<'p, P>>), quote!(H))
        } else {
            (quote!(), quote!(Engine<'_>))
        }
    }

    /// The position type of the functions for sets, integers and conditions: any number `L`
    /// of `let` slots, since both the walk's position (`PW`) and replay's (`P`) are read.
    fn value_pos_type(&self) -> TokenStream {
        let (w, k, c) = (
            lit(self.set_words()),
            lit(self.kinds()),
            lit(self.p.counters.len()),
        );
        quote!(Pos<#w, #k, #c, L>)
    }

    /// The functions for the sets, integers and conditions that are emitted. They read the
    /// host's [`View`], so that both hosts of replay call the same functions. Every body is
    /// built before any attribute is decided, since bodies call each other.
    ///
    /// [`View`]: rulestone_runtime::compiled::View
    pub(crate) fn value_fns(&self, replay: Range<usize>) -> TokenStream {
        let mut bodies = Vec::new();
        for kind in [Kind::Set, Kind::Int, Kind::Bool] {
            for id in self.same.emitted(kind) {
                let mark = self.calls_mark();
                let body = match kind {
                    Kind::Set => self.set_body(id),
                    Kind::Int => self.int_body(id),
                    Kind::Bool => self.bool_body(id),
                };
                bodies.push(ValueBody {
                    kind,
                    id,
                    body,
                    calls: mark..self.calls_mark(),
                });
            }
        }
        let always = self.inlined_into_replay(&bodies, &replay);
        let pos_ty = self.value_pos_type();
        let fns = bodies.iter().zip(always).map(|(b, always)| {
            let attr = if always {
                quote!(#[inline(always)])
            } else {
                quote!(#[inline])
            };
            let (name, params, out) = match b.kind {
                Kind::Set => ("s", quote!(d: S, cand: u16), quote!(S)),
                Kind::Int => ("i", quote!(cand: u16), quote!(i32)),
                Kind::Bool => ("b", quote!(cand: u16), quote!(bool)),
            };
            let f = format_ident!("{}{}", name, b.id);
            let body = &b.body;
            quote! {
                #attr
                fn #f<const L: usize>(e: &View<'_>, pos: &#pos_ty, v: &V, #params) -> #out {
                    #body
                }
            }
        });
        let fns = fns.collect::<Vec<_>>();
        quote!(#(#fns)*)
    }

    /// Per expression function of `bodies`: whether its one call site is in replay (the calls
    /// in `replay`) or in a function inlined there. Such a function is inlined always: replay
    /// is compiled once per host, and an always-inlined caller is copied into each, so the
    /// compiler would see two callers and keep a call (where a copy per host, as every
    /// function had before the walk was compiled once, was inlined).
    fn inlined_into_replay(&self, bodies: &[ValueBody], replay: &Range<usize>) -> Vec<bool> {
        let calls = self.calls.borrow();
        // The body each call was made in, if any.
        let mut owner = vec![None; calls.len()];
        for (i, b) in bodies.iter().enumerate() {
            for slot in &mut owner[b.calls.clone()] {
                *slot = Some(i);
            }
        }
        let index: HashMap<Call, usize> = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| (Call::Value(b.kind, b.id), i))
            .collect();
        let mut sites: Vec<Vec<usize>> = vec![Vec::new(); bodies.len()];
        for (at, call) in calls.iter().enumerate() {
            if let Some(&i) = index.get(call) {
                sites[i].push(at);
            }
        }
        let mut always: Vec<Option<bool>> = vec![None; bodies.len()];
        (0..bodies.len())
            .map(|i| inlined_into(i, &sites, &owner, replay, &mut always))
            .collect()
    }

    fn set_body(&self, id: usize) -> TokenStream {
        let cand = cand();
        let all = quote!(ALL);
        match &self.p.sets[id] {
            SetExpr::Const(c) => {
                let c = self.set_literal(*c);
                quote!(#c & d)
            }
            SetExpr::Empty => quote!(d - pos.occupied),
            SetExpr::Occupied => quote!(d & pos.occupied),
            SetExpr::PlayerPieces(pl) => {
                let pl = player(*pl, &cand);
                quote!(pos.of_player(#pl) & d)
            }
            // One piece kind: its pieces are the player's.
            SetExpr::Pieces { player: pl, .. } if self.p.pieces.len() == 1 => {
                let pl = player(*pl, &cand);
                quote!(pos.of_player(#pl) & d)
            }
            // No player (the owner of an empty cell) has no pieces.
            SetExpr::Pieces { code, player: pl } => {
                let kind = lit(usize::from((code - 1) / 2));
                let pl = player(*pl, &cand);
                quote!(pos.of_kind(#kind, #pl) & d)
            }
            SetExpr::Single(c) => {
                let c = cell(*c, &cand);
                quote! {
                    let mut one = S::EMPTY;
                    one.insert(usize::from(#c));
                    one & d
                }
            }
            SetExpr::Union(a, b) => {
                let (a, b) = (self.s_call(*a, &quote!(d)), self.s_call(*b, &quote!(d)));
                quote!(#a | #b)
            }
            SetExpr::Inter(a, b) => {
                let (a, b) = (self.s_call(*a, &quote!(d)), self.s_call(*b, &quote!(x)));
                quote! {
                    let x = #a;
                    if x.is_empty() {
                        x
                    } else {
                        #b
                    }
                }
            }
            SetExpr::Diff(a, b) => {
                let (a, b) = (self.s_call(*a, &quote!(d)), self.s_call(*b, &quote!(x)));
                quote! {
                    let x = #a;
                    if x.is_empty() {
                        x
                    } else {
                        x - #b
                    }
                }
            }
            SetExpr::All { relation, of } => self.neighbourhood(*relation, *of, Around::All),
            SetExpr::None { relation, of } => self.neighbourhood(*relation, *of, Around::None),
            SetExpr::Any { relation, of } => self.neighbourhood(*relation, *of, Around::Any),
            SetExpr::Group {
                relation,
                from,
                through,
            } => {
                let ring = self.ring(*relation);
                let (through, from) = (
                    self.s_call(*through, &all),
                    self.s_call(*from, &quote!(through)),
                );
                quote! {
                    let through = #through;
                    let mut reached = #from & through;
                    let mut frontier = reached;
                    while !frontier.is_empty() {
                        #ring
                        frontier = (ring & through) - reached;
                        reached |= frontier;
                    }
                    reached & d
                }
            }
            SetExpr::First(of) => {
                let of = self.s_call(*of, &all);
                quote! {
                    let of = #of;
                    let mut one = S::EMPTY;
                    if let Some(c) = of.iter().next() {
                        one.insert(c);
                    }
                    one & d
                }
            }
            SetExpr::Step { relation, of } => self.step(*relation, *of),
            SetExpr::Between {
                relation,
                from,
                run,
                end,
            } => self.between(*relation, *from, *run, *end),
            SetExpr::Brackets { relation, run, end } => self.brackets(*relation, *run, *end),
            SetExpr::Local(slot) => {
                let slot = lit(usize::from(*slot));
                quote!(pos.locals[#slot] & d)
            }
            SetExpr::StepDir { .. }
            | SetExpr::Line { .. }
            | SetExpr::Placed { .. }
            | SetExpr::AxisCmp { .. }
            | SetExpr::AxisRows { .. }
            | SetExpr::AxisKey { .. }
            | SetExpr::Where { .. } => self.set_body_more(id),
        }
    }

    /// [`Emitter::set_body`] for directions, lines, placed copies, coordinates and filters.
    fn set_body_more(&self, id: usize) -> TokenStream {
        let cand = cand();
        let all = quote!(ALL);
        let args = quote!(e, pos, v, cand);
        match &self.p.sets[id] {
            SetExpr::StepDir { relation, dir, of } => {
                let r = lit(usize::from(*relation));
                let dir = self.dir_code(*relation, dir, &args);
                let of = self.s_call(*of, &all);
                quote! {
                    let rel = &e.program().relations[#r];
                    let dir = #dir;
                    rel.step_along(dir, #of) & d
                }
            }
            SetExpr::Line {
                relation,
                dir,
                from,
                run,
            } => {
                let r = lit(usize::from(*relation));
                let dir = dir.as_ref().map_or_else(
                    || quote!(None),
                    |x| {
                        let x = self.dir_code(*relation, x, &args);
                        quote!(Some(#x))
                    },
                );
                let run = run.map_or_else(
                    || quote!(None),
                    |r| {
                        let r = self.s_call(r, &all);
                        quote!(Some(#r))
                    },
                );
                let from = cell(*from, &cand);
                quote! {
                    let rel = &e.program().relations[#r];
                    let dir = #dir;
                    let run = #run;
                    rel.line(e.rt_mover(), dir, usize::from(#from), run) & d
                }
            }
            SetExpr::Placed { slot, .. } => {
                let slot = lit(self.placed_local(*slot));
                quote!(pos.locals[#slot] & d)
            }
            SetExpr::AxisCmp { axis, op, value } => {
                let axis = lit(usize::from(*axis));
                let op = variant(op);
                let value = self.i_call(*value);
                quote!(S::from_set(e.program().board.axis_cmp(#axis, CmpOp::#op, #value)) & d)
            }
            SetExpr::AxisRows { base, axis, cond } => {
                let base = self.s_call(*base, &quote!(d));
                let axis = lit(usize::from(*axis));
                let f = self.bool_fn(usize::from(*cond));
                quote! {
                    let within = #base;
                    let keep = |c: usize| #f(e, pos, v, c as u16);
                    e.program().board.rows_where(#axis, within, keep)
                }
            }
            SetExpr::AxisKey {
                base,
                axis,
                key,
                op,
                value,
            } => {
                let base = self.s_call(*base, &quote!(d));
                let axis = lit(usize::from(*axis));
                let f = self.int_fn(usize::from(*key));
                let op = variant(op);
                let value = self.i_call(*value);
                quote! {
                    let within = #base;
                    let value = #value;
                    let keep = |c: usize| compare(CmpOp::#op, #f(e, pos, v, c as u16), value);
                    e.program().board.rows_where(#axis, within, keep)
                }
            }
            SetExpr::Where { base, cond } => {
                let base = self.s_call(*base, &quote!(d));
                let f = self.bool_fn(usize::from(*cond));
                quote! {
                    let x = #base;
                    let mut out = x;
                    for c in x.iter() {
                        if !#f(e, pos, v, c as u16) {
                            out.remove(c);
                        }
                    }
                    out
                }
            }
            SetExpr::Const(_)
            | SetExpr::Empty
            | SetExpr::Occupied
            | SetExpr::PlayerPieces(_)
            | SetExpr::Pieces { .. }
            | SetExpr::Single(_)
            | SetExpr::Union(..)
            | SetExpr::Inter(..)
            | SetExpr::Diff(..)
            | SetExpr::All { .. }
            | SetExpr::None { .. }
            | SetExpr::Any { .. }
            | SetExpr::Group { .. }
            | SetExpr::First(_)
            | SetExpr::Step { .. }
            | SetExpr::Between { .. }
            | SetExpr::Brackets { .. }
            | SetExpr::Local(_) => self.set_body(id),
        }
    }

    /// The function `iN` for integer `id`.
    fn int_body(&self, id: usize) -> TokenStream {
        let cand = cand();
        match &self.p.ints[id] {
            IntExpr::Const(x) => signed(i64::from(*x)),
            IntExpr::Counter(slot) => {
                let slot = lit(usize::from(*slot));
                quote!(pos.counters[#slot])
            }
            // No player (the owner of an empty cell) reads 0.
            IntExpr::PlayerCounter {
                base,
                player: pl @ PlayerRef::Owner(_),
            } => {
                let base = Literal::usize_suffixed(usize::from(*base));
                let pl = player(*pl, &cand);
                quote! {
                    match #pl {
                        who if who < 2 => pos.counters[#base + usize::from(who)],
                        _ => 0,
                    }
                }
            }
            IntExpr::PlayerCounter { base, player: pl } => {
                let base = Literal::usize_suffixed(usize::from(*base));
                let pl = player(*pl, &cand);
                quote!(pos.counters.get(#base + usize::from(#pl)).copied().unwrap_or(0))
            }
            IntExpr::Axis { cell: c, axis } => {
                let table = format_ident!("AXIS{}", *axis);
                let c = cell(*c, &cand);
                quote!(#table[usize::from(#c)])
            }
            IntExpr::Count(s) => {
                let s = self.s_call(*s, &quote!(ALL));
                quote!(i32::try_from(#s.len()).unwrap_or(i32::MAX))
            }
            IntExpr::CellCounter { base, cell: c } => {
                let base = Literal::usize_suffixed(usize::from(*base));
                let c = cell(*c, &cand);
                quote!(pos.counters[#base + usize::from(#c)])
            }
            IntExpr::CellSum { base, of } => {
                let base = Literal::usize_suffixed(usize::from(*base));
                let s = self.s_call(*of, &quote!(ALL));
                quote!(ops::cell_sum(&pos.counters, #base, &#s))
            }
            IntExpr::Points(pl) => {
                // No player (the owner of an empty cell) has no points.
                let guard = if let PlayerRef::Owner(_) = pl {
                    quote!(if who > 1 {
                        return 0;
                    })
                } else {
                    quote!()
                };
                let pl = player(*pl, &cand);
                quote! {
                    let who = usize::from(#pl);
                    #guard
                    stock_points(&e.program().shapes, &pos.counters, who)
                }
            }
            IntExpr::Won(pl) => {
                let pl = player(*pl, &cand);
                quote!(i32::from(e.rt_result() == Some(GameResult::Win(#pl))))
            }
            IntExpr::Repetitions => quote!(e.rt_repetitions(pos.hash, &pos.counters)),
            IntExpr::DirIndex { relation, dir } => {
                let d = self.dir_code(*relation, dir, &quote!(e, pos, v, cand));
                quote! {
                    let d = #d;
                    if d == 255 {
                        -1
                    } else {
                        i32::from(d)
                    }
                }
            }
            IntExpr::CellId(c) => {
                let c = cell(*c, &cand);
                quote!(i32::from(#c))
            }
            IntExpr::Cond {
                cond,
                then,
                otherwise,
            } => {
                let (c, t, o) = (
                    self.b_call(*cond),
                    self.i_call(*then),
                    self.i_call(*otherwise),
                );
                quote! {
                    if #c {
                        #t
                    } else {
                        #o
                    }
                }
            }
            IntExpr::Neg(x) => {
                let x = self.i_call(*x);
                quote!(neg(#x))
            }
            IntExpr::Bin { op, lhs, rhs } => {
                let op = variant(op);
                let (l, r) = (self.i_call(*lhs), self.i_call(*rhs));
                quote!(int_op(IntOp::#op, #l, #r))
            }
        }
    }

    /// A comparison of a set's size with 0 or 1 that only asks whether the set is empty
    /// (`count(S) > 0`, `count(S) == 0`, `count(S) >= 1`, either way round): the set, and
    /// whether the comparison holds when it is empty. An emptiness test stops at the first
    /// word with a bit where a count adds up every word, and without a `popcnt` instruction
    /// in the target (the default for x86-64) each word's count takes a dozen instructions.
    fn emptiness(&self, op: CmpOp, lhs: IntId, rhs: IntId) -> Option<(SetId, bool)> {
        let (l, r) = (
            &self.p.ints[usize::from(lhs)],
            &self.p.ints[usize::from(rhs)],
        );
        let (set, op, k) = if let (IntExpr::Count(s), IntExpr::Const(k)) = (l, r) {
            (*s, op, *k)
        } else if let (IntExpr::Const(k), IntExpr::Count(s)) = (l, r) {
            (*s, op.mirrored(), *k)
        } else {
            return None;
        };
        match (op, k) {
            (CmpOp::Gt | CmpOp::Ne, 0) | (CmpOp::Ge, 1) => Some((set, false)),
            (CmpOp::Eq | CmpOp::Le, 0) | (CmpOp::Lt, 1) => Some((set, true)),
            (CmpOp::Gt | CmpOp::Ne | CmpOp::Ge | CmpOp::Eq | CmpOp::Le | CmpOp::Lt, _) => None,
        }
    }

    /// The function `bN` for condition `id`.
    fn bool_body(&self, id: usize) -> TokenStream {
        let cand = cand();
        match &self.p.bools[id] {
            BoolExpr::Const(x) => quote!(#x),
            BoolExpr::DirIn {
                relation,
                dir,
                members,
            } => {
                let i = self.dir_code(*relation, dir, &quote!(e, pos, v, cand));
                let m0 = crate::hex_literal(members[0], 0, "u64");
                let m1 = crate::hex_literal(members[1], 0, "u64");
                quote! {
                    let i = #i;
                    let mask = [#m0, #m1][usize::from(e.rt_mover() & 1)];
                    i < 64 && (mask >> i) & 1 == 1
                }
            }
            BoolExpr::Not(x) => {
                let x = self.b_call(*x);
                quote!(!#x)
            }
            BoolExpr::And(a, b) => {
                let (a, b) = (self.b_call(*a), self.b_call(*b));
                quote!(#a && #b)
            }
            BoolExpr::Or(a, b) => {
                let (a, b) = (self.b_call(*a), self.b_call(*b));
                quote!(#a || #b)
            }
            BoolExpr::Cmp { op, lhs, rhs } => match self.emptiness(*op, *lhs, *rhs) {
                Some((set, true)) => {
                    let s = self.s_call(set, &quote!(ALL));
                    quote!(#s.is_empty())
                }
                Some((set, false)) => {
                    let s = self.s_call(set, &quote!(ALL));
                    quote!(!#s.is_empty())
                }
                None => {
                    let op = variant(op);
                    let (l, r) = (self.i_call(*lhs), self.i_call(*rhs));
                    quote!(compare(CmpOp::#op, #l, #r))
                }
            },
            BoolExpr::CellEq { eq, lhs, rhs } => {
                let (l, r) = (cell(*lhs, &cand), cell(*rhs, &cand));
                quote!((#l == #r) == #eq)
            }
            BoolExpr::PlayerEq { eq, lhs, rhs } => {
                let (l, r) = (player(*lhs, &cand), player(*rhs, &cand));
                quote!((#l == #r) == #eq)
            }
            BoolExpr::In { cell: c, set } => {
                let c = cell(*c, &cand);
                let s = self.s_call(*set, &quote!(one));
                quote! {
                    let mut one = S::EMPTY;
                    one.insert(usize::from(#c));
                    !#s.is_empty()
                }
            }
            BoolExpr::Completes {
                pattern,
                cell: c,
                set,
            } => self.completes(*pattern, *c, *set),
            BoolExpr::Connected {
                relation,
                through,
                from,
                to,
            } => {
                let ring = self.ring(*relation);
                let through = self.s_call(*through, &quote!(ALL));
                let to = self.s_call(*to, &quote!(ALL));
                let from = self.s_call(*from, &quote!(through));
                quote! {
                    let through = #through;
                    let to = #to & through;
                    if to.is_empty() {
                        return false;
                    }
                    let mut reached = #from;
                    let mut frontier = reached;
                    while !frontier.is_empty() {
                        if frontier.intersects(&to) {
                            return true;
                        }
                        #ring
                        frontier = (ring & through) - reached;
                        reached |= frontier;
                    }
                    false
                }
            }
        }
    }

    /// `completes(pattern, cell, set)`: an instance of the pattern holding the cell lies in
    /// the set, by the pattern's fixed rows or its ranges (see [`Emitter::pattern_tables`]).
    fn completes(&self, pattern: u16, c: CellRef, set: SetId) -> TokenStream {
        let c = cell(c, &cand());
        let s = self.s_call(set, &quote!(ALL));
        if self.pattern_width(usize::from(pattern)).is_some() {
            let pw = format_ident!("PW{}", pattern);
            quote! {
                let c = usize::from(#c);
                let s = #s;
                #pw.get(c).is_some_and(|row| row.iter().any(|inst| inst.is_subset(&s)))
            }
        } else {
            let (po, pi) = (
                format_ident!("PO{}", pattern),
                format_ident!("PI{}", pattern),
            );
            quote! {
                let c = usize::from(#c);
                let (a, b) = (#po[c] as usize, #po[c + 1] as usize);
                if a == b {
                    return false;
                }
                let s = #s;
                #pi[a..b].iter().any(|inst| inst.is_subset(&s))
            }
        }
    }
}
