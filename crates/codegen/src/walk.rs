//! The generating walk: one function `atN` per op a walk can arrive at, which does the op's
//! work and calls its continuation, and the items of one program's module around them.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use rulestone_ir::unordered::Unordered;
use rulestone_ir::{AssignSlot, BoolExpr, Code, Finish, IntId, Op, PlayerRef, SetId};

use crate::reads::{Effect, Reads};
use crate::sets::{cell, player};
use crate::{assign_apply, lit, signed, Call, Emitter};

/// Moves of fewer decisions than this hold them all in their first word.
const SHORT_MOVE: usize = 8;

/// `0u16`: the candidate where there is none (in the walk and replay).
pub(crate) fn no_cand() -> TokenStream {
    quote!(0u16)
}

impl Emitter<'_> {
    /// A call of set function `id` in a walk or replay, with the domain `ALL`.
    pub(crate) fn walk_set(&self, id: SetId) -> TokenStream {
        let f = self.set_fn(usize::from(id));
        let view = self.view_arg();
        quote!(#f(#view, &pos, &v, ALL, 0))
    }

    /// A call of integer function `id` in a walk or replay.
    pub(crate) fn walk_int(&self, id: IntId) -> TokenStream {
        let f = self.int_fn(usize::from(id));
        let view = self.view_arg();
        quote!(#f(#view, &pos, &v, 0))
    }

    /// A call of condition function `id` in a walk or replay.
    pub(crate) fn walk_bool(&self, id: u16) -> TokenStream {
        let f = self.bool_fn(usize::from(id));
        let view = self.view_arg();
        quote!(#f(#view, &pos, &v, 0))
    }
}

/// How the walk spells a change to the position value: hashed or not (see [`Effect`]).
pub(crate) struct Changes {
    hashed: bool,
}

impl Changes {
    /// A cell's new piece code.
    fn cell(&self, cell: &TokenStream, piece: &TokenStream) -> TokenStream {
        let hashed = self.hashed;
        quote!(pos.set_cell::<#hashed>(e.zobrist(), #cell, #piece);)
    }

    /// A counter's new value.
    fn counter(&self, slot: &TokenStream, value: &TokenStream) -> TokenStream {
        let hashed = self.hashed;
        quote!(pos.set_counter::<#hashed>(e.zobrist(), #slot, #value);)
    }
}

/// An action for the owner of an empty cell (no player) fails this way through the turn, as in
/// the interpreter (`Engine::acting`): the guard that ends the walk.
pub(crate) fn no_player_guard(p: PlayerRef) -> TokenStream {
    match p {
        PlayerRef::Owner(_) => {
            let who = player(p, &no_cand());
            quote!(if #who > 1 {
                return;
            })
        }
        PlayerRef::Mover | PlayerRef::Opponent | PlayerRef::Const(_) => quote!(),
    }
}

/// The guard of a per-player counter's slot.
pub(crate) fn slot_guard(slot: AssignSlot) -> TokenStream {
    match slot {
        AssignSlot::PerPlayer { player: who, .. } => no_player_guard(who),
        AssignSlot::Global(_) | AssignSlot::PerCell { .. } => quote!(),
    }
}

/// The counter slot an assignment writes.
pub(crate) fn assigned_slot(slot: AssignSlot) -> TokenStream {
    match slot {
        AssignSlot::Global(s) => {
            let s = Literal::usize_suffixed(usize::from(s));
            quote!(#s)
        }
        AssignSlot::PerPlayer { base, player: who } => {
            let base = Literal::usize_suffixed(usize::from(base));
            let who = player(who, &no_cand());
            quote!(#base + usize::from(#who))
        }
        AssignSlot::PerCell { base, cell: c } => {
            let base = Literal::usize_suffixed(usize::from(base));
            let c = cell(c, &no_cand());
            quote!(#base + usize::from(#c))
        }
    }
}

impl Emitter<'_> {
    /// The items of the program's module: types, tables, the walk, replay and the
    /// expression functions.
    pub(crate) fn program(&self) -> TokenStream {
        let locals = self.first_extra_local + self.unordered.len() + self.placed_slots();
        let (w, k, c) = (
            lit(self.set_words()),
            lit(self.kinds()),
            lit(self.p.counters.len()),
        );
        let doc_s = format!(
            " Cell sets: {} word(s), room for {} cells.",
            self.set_words(),
            self.capacity()
        );
        let all = self.set_literal(self.p.board.all);
        let locals_l = lit(locals);
        let walk_type = self.walk_type(locals);
        let relations = self.relation_tables();
        let patterns = self.pattern_tables();
        let axes = self.axis_tables();
        let walk = self.walk_fns();
        let mark = self.calls_mark();
        let replay = self.replay_fns();
        let values = self.value_fns(mark..self.calls_mark());
        let rays = self.ray_tables();
        quote! {
            #[doc = #doc_s]
            type S = CellBits<#w>;

            #[doc = " The position: set words, piece kinds, counter slots, `let` slots (and the sets"]
            #[doc = " earlier rounds of unordered picks chose from)."]
            type P = Pos<#w, #k, #c, #locals_l>;

            const ALL: S = #all;

            #walk_type
            #relations
            #patterns
            #axes
            #walk
            #replay
            #values
            #rays
        }
    }

    /// `walk`, the walk functions some call reaches (a walk arriving at a step that does
    /// nothing goes on past it, so no call reaches that step's) and, for a program that walks
    /// on the engine, the engine's `generate` (the others' is `fast_generate` of `Turn`).
    fn walk_fns(&self) -> TokenStream {
        let code = &self.p.turn;
        let host = self.walk_host();
        let mark = self.calls_mark();
        let first = self.at(0, &quote!([0; 16]));
        let mut bodies: Vec<Option<TokenStream>> = vec![None; code.ops.len()];
        let mut todo = self.walk_calls_since(mark);
        while let Some(pc) = todo.pop() {
            if bodies.get(pc).is_some_and(Option::is_none) {
                let mark = self.calls_mark();
                bodies[pc] = Some(self.op(code, pc));
                todo.extend(self.walk_calls_since(mark));
            }
        }
        let fns = bodies.iter().enumerate().filter_map(|(pc, body)| {
            let body = body.as_ref()?;
            let attr = self.inline_attr(Call::Walk(pc));
            let f = format_ident!("at{}", pc);
            Some(quote! {
                #attr
                fn #f(e: #host, mut v: V, pos: &PW, m: Move, g: &mut Gen<'_>) {
                    #body
                }
            })
        });
        let fns = fns.collect::<Vec<_>>();
        let generate = (!crate::runs_fast(self.p)).then(|| {
            quote! {
                pub fn generate(e: &mut Engine<'_>, g: &mut Gen<'_>) {
                    let pos = PW::of(e);
                    walk(e, pos, g)
                }
            }
        });
        quote! {
            #generate

            #[inline(always)]
            fn walk(e: #host, pos: PW, g: &mut Gen<'_>) {
                let m = Move::default();
                #first
            }

            #(#fns)*
        }
    }

    /// `PW`, the position as the generating walk holds it, and `walk_pos`, which makes it
    /// from the host's: only the `let` slots up to the last one the walk reads, so that the
    /// copy each changing step makes is smaller (small enough for registers, where all the
    /// slots, some read only after the move is decided, can take a call to `memcpy`).
    fn walk_type(&self, locals: usize) -> TokenStream {
        let read = self.walk_reads();
        let kept = (0..locals)
            .rev()
            .find(|&k| read.meets(Reads::local(k)))
            .map_or(0, |k| k + 1);
        let slots = (0..kept).map(lit);
        let (w, k, c) = (
            lit(self.set_words()),
            lit(self.kinds()),
            lit(self.p.counters.len()),
        );
        let kept = lit(kept);
        quote! {
            #[doc = " The position as the generating walk holds it: the `let` slots it reads."]
            type PW = Pos<#w, #k, #c, #kept>;

            #[inline(always)]
            fn walk_pos(pos: &P) -> PW {
                PW {
                    occupied: pos.occupied,
                    by_player: pos.by_player,
                    by_kind: pos.by_kind,
                    counters: pos.counters,
                    hash: pos.hash,
                    locals: [#(pos.locals[#slots]),*],
                }
            }
        }
    }

    /// The call that appends `decision` to the move at `pc`, `offset` decisions after those it
    /// arrives with: at a place fixed when compiling where every walk to `pc` agrees on it.
    fn extend(&self, pc: usize, offset: usize, decision: &TokenStream) -> TokenStream {
        match self.fixed_depth(pc, offset) {
            Some(d) => {
                let d = lit(d);
                quote!(g.extend_at::<#d>(m, #decision))
            }
            None => quote!(g.extend(m, #decision)),
        }
    }

    /// [`Emitter::extend`] for the last decision of a move, which lists it.
    fn leaf_with(&self, pc: usize, offset: usize, decision: &TokenStream) -> TokenStream {
        match self.fixed_depth(pc, offset) {
            Some(d) if d < SHORT_MOVE - 1 => {
                let d = lit(d);
                quote!(g.leaf_short_with_at::<#d>(m, #decision);)
            }
            Some(d) => {
                let d = lit(d);
                quote!(g.leaf_with_at::<#d>(m, #decision);)
            }
            None => quote!(g.leaf_with(m, #decision);),
        }
    }

    /// Lists the move, complete on arriving at `pc`: a move whose decisions all lie in its
    /// first word (see `Move::short`) is listed as that word.
    fn leaf(&self, pc: usize) -> TokenStream {
        if self.most.get(pc).is_some_and(|&n| n < SHORT_MOVE) {
            quote!(g.leaf_short(m);)
        } else {
            quote!(g.leaf(m);)
        }
    }

    fn fixed_depth(&self, pc: usize, offset: usize) -> Option<usize> {
        let d = usize::from(self.depths.get(pc).copied().flatten()?) + offset;
        (d < rulestone_ir::MAX_DECISIONS).then_some(d)
    }

    /// How many `place` slots the turn uses (each keeps its covered cells in a local slot).
    fn placed_slots(&self) -> usize {
        self.p
            .turn
            .ops
            .iter()
            .filter_map(|op| {
                if let Op::Place { slot, .. } = op {
                    Some(usize::from(*slot) + 1)
                } else {
                    None
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// The `Pos::locals` slot holding the covered cells of `place` slot `slot`.
    pub(crate) fn placed_local(&self, slot: u8) -> usize {
        self.first_extra_local + self.unordered.len() + usize::from(slot)
    }

    /// Whether the `distinct` block starting at `start` lists each end once without comparing.
    pub(crate) fn skips_distinct_check(&self, start: usize) -> bool {
        self.unordered.iter().any(|u| u.start == start && u.unique)
    }

    /// The unordered block whose rounds open with the pick at `pc`, and its extra local slot.
    pub(crate) fn unordered_pick(&self, pc: usize) -> Option<(Unordered, usize)> {
        let k = self.unordered.iter().position(|u| u.pick == pc)?;
        Some((self.unordered[k], self.first_extra_local + k))
    }

    /// The block a `distinct-end` at `pc` closes.
    fn distinct_start_of(&self, end: usize) -> Option<usize> {
        let ops = &self.p.turn.ops;
        let Op::DistinctEnd { block } = ops[end] else {
            return None;
        };
        (0..end)
            .rev()
            .find(|&pc| matches!(ops[pc], Op::DistinctStart { block: b } if b == block))
    }

    /// The body of `atN`, the walk arriving at op `pc` (a `busy` op).
    fn op(&self, code: &Code, pc: usize) -> TokenStream {
        // The position comes by reference: only an op that changes it copies it (a change
        // that waits copies it where it is made).
        if code.decided[pc] {
            self.leaf(pc)
        } else if let Some(body) = self.sunk(code, pc) {
            body
        } else {
            let body = self.plain_body(code, pc);
            if self.op_writes(pc).is_empty() {
                body
            } else {
                quote!(let mut pos = *pos; #body)
            }
        }
    }

    /// An effect whose change waits: the walk goes on through tests that do not read it
    /// (`if` conditions), and the change is made only where something reads it, so a branch
    /// that lists the move without reading the position neither copies nor changes it (e.g. a
    /// test, passed by most moves, of whether a move needs a look at the position after it).
    /// `None` when no branch gains.
    fn sunk(&self, code: &Code, pc: usize) -> Option<TokenStream> {
        if !self.deferrable(pc) {
            return None;
        }
        let mut dropped = false;
        let mut tests = 0;
        let mark = self.calls_mark();
        let body = self
            .pending_walk(code, pc + 1, &[pc], &mut tests, &mut dropped)
            .filter(|_| dropped);
        if body.is_none() {
            self.forget_calls(mark);
        }
        body
    }

    /// The walk from `q` with the changes of the effects at `pending` not made yet.
    fn pending_walk(
        &self,
        code: &Code,
        q: usize,
        pending: &[usize],
        tests: &mut usize,
        dropped: &mut bool,
    ) -> Option<TokenStream> {
        let q = self.gen_busy.get(q).copied().unwrap_or(q);
        let effect_of = |p: usize| {
            let board = !matches!(code.ops[p], Op::Assign { .. } | Op::AssignAll { .. });
            self.effect(p, board)
        };
        if code.decided[q] {
            *dropped |= pending.iter().any(|&p| effect_of(p) != Effect::Skip);
            return Some(self.leaf(q));
        }
        if pending.len() < 6 && self.deferrable(q) {
            let mut more = pending.to_vec();
            more.push(q);
            return self.pending_walk(code, q + 1, &more, tests, dropped);
        }
        let writes = pending
            .iter()
            .map(|&p| self.op_writes(p))
            .fold(Reads::default(), |a, b| a | b);
        let v = quote!(v);
        if let Op::Unless { cond, target } = code.ops[q] {
            let target = target as usize;
            if !self.bool_reads(cond).meets(writes) && *tests < 4 {
                *tests += 1;
                let then = self.pending_walk(code, q + 1, pending, tests, dropped)?;
                let other = self.pending_walk(code, target, pending, tests, dropped)?;
                let test = self.walk_bool(cond);
                return Some(quote!(if #test { #then } else { #other }));
            }
            // `a and b` where only `b` reads a change that waits: the change is made only
            // where `a` holds (e.g. a test that reads the board only for one kind of step).
            if let BoolExpr::And(a, b) = self.p.bools[usize::from(cond)] {
                if !self.bool_reads(a).meets(writes) && *tests < 4 {
                    *tests += 1;
                    let (tb, go, stop) =
                        (self.walk_bool(b), self.at(q + 1, &v), self.at(target, &v));
                    let test = quote!(if #tb { #go; } else { #stop; });
                    let then = self.flush(code, pending, writes, &test);
                    let other = self.pending_walk(code, target, pending, tests, dropped)?;
                    let ta = self.walk_bool(a);
                    return Some(quote!(if #ta { #then } else { #other }));
                }
            }
        }
        let go = self.at(q, &v);
        Some(self.flush(code, pending, writes, &quote!(#go;)))
    }

    /// The changes of the effects at `pending` (which write `writes`), made on a copy of the
    /// position, then `then`.
    fn flush(
        &self,
        code: &Code,
        pending: &[usize],
        writes: Reads,
        then: &TokenStream,
    ) -> TokenStream {
        let mut s = TokenStream::new();
        if !writes.is_empty() {
            s.extend(quote!(let mut pos = *pos;));
        }
        for &p in pending {
            s.extend(self.effect_change(code, p));
        }
        s.extend(then.clone());
        s
    }

    /// The walk's code for the op at `pc` (not decided there), then its continuation.
    fn plain_body(&self, code: &Code, pc: usize) -> TokenStream {
        let v = quote!(v);
        let next = || self.at(pc + 1, &v);
        match &code.ops[pc] {
            Op::Place {
                slot,
                anchor,
                table,
                player: who,
                layer,
                max,
                feet,
            } => self.place_body(
                code,
                pc,
                (*slot, *anchor, *table, *layer),
                *who,
                (*max, *feet),
            ),
            Op::PickDir { var, relation } => self.pick_dir_body(code, pc, *var, *relation),
            Op::Pick { var, from } => self.pick_body(code, pc, *var, *from),
            Op::Let { slot, set, .. } if self.let_kept(pc, *slot) => {
                let (slot, set, next) = (lit(usize::from(*slot)), self.walk_set(*set), next());
                quote!(pos.locals[#slot] = #set; #next;)
            }
            // Nothing the walk runs reads this `let`.
            Op::Let { .. } | Op::Again | Op::Write(_) | Op::Chooser(_) => {
                let next = next();
                quote!(#next;)
            }
            Op::Put { .. }
            | Op::Remove { .. }
            | Op::Move { .. }
            | Op::PutAll { .. }
            | Op::RemoveAll { .. }
            | Op::Shift { .. }
            | Op::Assign { .. }
            | Op::AssignAll { .. } => {
                let (change, next) = (self.effect_change(code, pc), next());
                quote!(#change #next;)
            }
            Op::Require(b) => {
                let (b, next) = (self.walk_bool(*b), next());
                quote!(if !#b { return; } #next;)
            }
            Op::Unless { cond, target } => {
                let (b, go, stop) = (self.walk_bool(*cond), next(), self.at(*target as usize, &v));
                quote!(if #b { #go; } else { #stop; })
            }
            Op::Jump(target) => {
                let go = self.at(*target as usize, &v);
                quote!(#go;)
            }
            Op::Either(branches) => self.either_body(pc, branches),
            Op::First(branches) => self.first_body(pc, branches),
            Op::RepeatStart { .. }
            | Op::RepeatCheck { .. }
            | Op::RepeatNext { .. }
            | Op::DistinctStart { .. }
            | Op::DistinctEnd { .. }
            | Op::Roll { .. }
            | Op::SetVar { .. }
            | Op::SetDir { .. }
            | Op::WhileCheck { .. }
            | Op::Memo { .. }
            | Op::Finish(_)
            | Op::Done => self.loop_body(code, pc),
        }
    }

    /// [`Emitter::plain_body`] for loops, `distinct`, rolls, variables and the turn's end.
    fn loop_body(&self, code: &Code, pc: usize) -> TokenStream {
        let v = quote!(v);
        let next = || self.at(pc + 1, &v);
        match &code.ops[pc] {
            Op::RepeatStart { var } => {
                let (var, next) = (lit(usize::from(*var)), next());
                quote!(v[#var] = 0; #next;)
            }
            Op::RepeatCheck {
                var,
                min,
                max,
                exit,
            } => {
                // Each call built is recorded: the continuations appear twice.
                let (stop, go) = (self.at(*exit as usize, &v), next());
                let (stop2, go2) = (self.at(*exit as usize, &v), next());
                let (var, min, max) = (
                    lit(usize::from(*var)),
                    lit(usize::from(*min)),
                    lit(usize::from(*max)),
                );
                quote! {
                    let rounds = v[#var];
                    match ops::repeat_bounds(rounds, #min, #max) {
                        (true, true) => {
                            if let Some(m) = g.extend(m, 0) {
                                #stop;
                            }
                            if let Some(m) = g.extend(m, 1) {
                                #go;
                            }
                        }
                        (true, false) => #stop2,
                        _ => #go2,
                    }
                }
            }
            Op::RepeatNext { var, check } => {
                let (var, go) = (lit(usize::from(*var)), self.at(*check as usize, &v));
                // A round is a step, and a call on the stack until its path ends.
                quote! {
                    if g.out_of_steps() || g.enter_round() {
                        return;
                    }
                    v[#var] = v[#var].wrapping_add(1);
                    #go;
                    g.leave_round();
                }
            }
            Op::DistinctStart { block } => {
                let next = next();
                if self.skips_distinct_check(pc) {
                    // Each set of picks is walked once: no ends to compare.
                    return quote!(#next;);
                }
                let block = lit(usize::from(*block));
                quote! {
                    let saved = e.rt_distinct_enter(#block);
                    #next;
                    e.rt_distinct_leave(#block, saved);
                }
            }
            Op::DistinctEnd { block } => {
                let skip = self
                    .distinct_start_of(pc)
                    .is_some_and(|s| self.skips_distinct_check(s));
                let next = next();
                if skip {
                    return quote!(#next;);
                }
                let block = lit(usize::from(*block));
                quote!(if !e.rt_distinct_first(#block, pos.hash) { return; } #next;)
            }
            Op::Roll { slot, lo, count } => self.roll_body(pc, *slot, *lo, *count),
            Op::WhileCheck { var, cond, exit } => {
                // Each check is a step, as each choice is; each round a call on the stack until
                // its path ends. (Replay follows a listed move, so it has neither.)
                let (test, out, next) =
                    (self.walk_bool(*cond), self.at(*exit as usize, &v), next());
                let var = lit(usize::from(*var));
                quote! {
                    if g.out_of_steps() {
                        return;
                    }
                    if !#test {
                        #out;
                        return;
                    }
                    if v[#var] == 255 || g.enter_round() {
                        return;
                    }
                    v[#var] += 1;
                    #next;
                    g.leave_round();
                }
            }
            Op::SetVar { .. } | Op::SetDir { .. } => {
                self.variable_op(&code.ops[pc], &next, &|exit| self.at(exit, &v))
            }
            Op::Memo { block } => {
                let (block, at, next) = (lit(usize::from(*block)), lit(pc), next());
                quote! {
                    if !e.rt_memo_first(#block, memo_key(pos.hash, #at, &v, &[], &pos.locals)) {
                        return;
                    }
                    #next;
                }
            }
            // The result is set when the move is applied; listing it needs nothing more than
            // a player to win or lose.
            Op::Finish(Finish::Win(p) | Finish::Lose(p)) => {
                let (guard, leaf) = (no_player_guard(*p), self.leaf(pc));
                quote!(#guard #leaf)
            }
            Op::Finish(Finish::Draw) | Op::Done => self.leaf(pc),
            Op::Place { .. }
            | Op::PickDir { .. }
            | Op::Pick { .. }
            | Op::Let { .. }
            | Op::Put { .. }
            | Op::Remove { .. }
            | Op::Move { .. }
            | Op::PutAll { .. }
            | Op::RemoveAll { .. }
            | Op::Shift { .. }
            | Op::Assign { .. }
            | Op::AssignAll { .. }
            | Op::Require(_)
            | Op::Unless { .. }
            | Op::Jump(_)
            | Op::Either(_)
            | Op::First(_)
            | Op::Again
            | Op::Write(_)
            | Op::Chooser(_) => self.plain_body(code, pc),
        }
    }

    /// `roll`: each value a decision, on a copy of the position per value.
    fn roll_body(&self, pc: usize, slot: u16, lo: i32, count: u16) -> TokenStream {
        let v = quote!(v);
        let slot = Literal::usize_suffixed(usize::from(slot));
        let lo = signed(i64::from(lo));
        let change = self.with_effect(pc, false, |ch| {
            ch.counter(&quote!(#slot), &quote!(ops::roll_value(#lo, k)))
        });
        let next = self.at(pc + 1, &v);
        let count = Literal::u16_suffixed(count);
        let extend = self.extend(pc, 0, &quote!(k as u8));
        quote! {
            g.set_chance();
            for k in 0..#count {
                if let Some(m) = #extend {
                    let mut pos = *pos;
                    #change
                    #next;
                }
            }
        }
    }

    /// `place`: every copy of every shape in the player's stock that rests on `feet` below
    /// `max`, each two decisions (the instance's index).
    fn place_body(
        &self,
        code: &Code,
        pc: usize,
        (slot, anchor, table, layer): (u8, u8, u16, u16),
        who: PlayerRef,
        (max, feet): (IntId, Option<SetId>),
    ) -> TokenStream {
        let feet = feet.map_or_else(|| quote!(ALL), |s| self.walk_set(s));
        let layer = Literal::usize_suffixed(usize::from(layer));
        let changes = match self.effect(pc, false) {
            Effect::Skip => quote!(),
            effect => {
                let hashed = matches!(effect, Effect::Hashed);
                quote! {
                    for (slot, value) in
                        ops::placement_changes(parts, Some(shape), &pos.counters, #layer, z, who)
                    {
                        pos.set_counter::<#hashed>(e.zobrist(), slot, value);
                    }
                }
            }
        };
        let then = if code.decided[self.gen_busy[pc + 1]] {
            self.leaf(pc + 1)
        } else {
            let (anchor, local) = (lit(usize::from(anchor)), lit(self.placed_local(slot)));
            let go = self.at(pc + 1, &quote!(w));
            quote! {
                let mut pos = *pos;
                let mut w = v;
                w[#anchor] = inst.anchor;
                pos.locals[#local] = S::from_set(inst.cells);
                #changes
                #go;
            }
        };
        let (guard, who) = (no_player_guard(who), player(who, &no_cand()));
        let (table, max) = (lit(usize::from(table)), self.walk_int(max));
        let (hi, lo) = (
            self.extend(pc, 0, &quote!(hi)),
            self.extend(pc, 1, &quote!(lo)),
        );
        quote! {
            #guard
            let who = #who;
            let table = &e.program().placements[#table];
            let max = #max;
            let feet = #feet;
            for (k, shape) in e.program().shapes.iter().enumerate() {
                if !ops::has_stock(&pos.counters, shape, who) {
                    continue;
                }
                let (first, end) = table.by_shape[k];
                for index in first..end {
                    let inst = &table.instances[index as usize];
                    let parts = table.parts_of(inst);
                    let z = ops::settle(parts, &pos.counters, #layer);
                    if !ops::rests_on(inst, parts, &pos.counters, #layer, z, max, &feet) {
                        continue;
                    }
                    let [hi, lo] = (index as u16).to_be_bytes();
                    if let Some(m) = #hi.and_then(|m| #lo) {
                        #then
                    }
                }
            }
        }
    }

    /// `pick` of a direction: each ray of the relation the mover has.
    fn pick_dir_body(&self, code: &Code, pc: usize, var: u8, relation: u16) -> TokenStream {
        let n = Literal::usize_suffixed(self.p.relations[usize::from(relation)].rays.len());
        let then = if code.decided[self.gen_busy[pc + 1]] {
            self.leaf(pc + 1)
        } else {
            let (var, go) = (lit(usize::from(var)), self.at(pc + 1, &quote!(w)));
            quote!(let mut w = v; w[#var] = i as u16; #go;)
        };
        let (relation, extend) = (
            lit(usize::from(relation)),
            self.extend(pc, 0, &quote!(i as u8)),
        );
        quote! {
            let rel = &e.program().relations[#relation];
            for i in 0..#n {
                if !rel.has_ray_for(i, e.rt_mover()) {
                    continue;
                }
                if let Some(m) = #extend {
                    #then
                }
            }
        }
    }

    /// `pick` of a cell: each cell of the set (a cell past 255 is two decisions, high byte
    /// first); listed at once where the pick decides the move.
    fn pick_body(&self, code: &Code, pc: usize, var: u8, from: SetId) -> TokenStream {
        let set = self.walk_set(from);
        let var_l = lit(usize::from(var));
        let mut head = quote!(let set = #set;);
        if let Some((u, slot)) = self.unordered_pick(pc) {
            // Cells below the previous pick that were already eligible then: that
            // order was walked first and ends the same.
            let (rounds, slot) = (lit(usize::from(u.rounds)), lit(slot));
            head.extend(quote! {
                let earlier = if v[#rounds] > 0 {
                    pos.locals[#slot] & S::first_n(usize::from(v[#var_l]))
                } else {
                    S::EMPTY
                };
                pos.locals[#slot] = set;
                let set = set - earlier;
            });
        }
        let wide_picks = self.p.wide_picks();
        let (wide, record, last) = if wide_picks {
            let high = self.extend(pc, 0, &quote!((c >> 8) as u8));
            let low = self.extend(pc, 1, &quote!(c as u8));
            let last = self.leaf_with(pc, 1, &quote!(c as u8));
            (quote!(#high.and_then(|m| #low)), high, last)
        } else {
            let one = self.extend(pc, 0, &quote!(c as u8));
            (one, quote!(), self.leaf_with(pc, 0, &quote!(c as u8)))
        };
        let decided = code.decided[self.gen_busy[pc + 1]];
        if decided && wide_picks {
            quote!(#head for c in set.iter() { if let Some(m) = #record { #last } })
        } else if decided {
            quote!(#head for c in set.iter() { #last })
        } else {
            let then = self.at(pc + 1, &quote!(w));
            quote! {
                #head
                for c in set.iter() {
                    let mut w = v;
                    w[#var_l] = c as u16;
                    if let Some(m) = #wide {
                        #then;
                    }
                }
            }
        }
    }

    /// `either`: every branch, each a decision.
    fn either_body(&self, pc: usize, branches: &[u32]) -> TokenStream {
        let v = quote!(v);
        let mut s = TokenStream::new();
        for (i, start) in branches.iter().enumerate() {
            let i = lit(i);
            let (extend, go) = (
                self.extend(pc, 0, &quote!(#i)),
                self.at(*start as usize, &v),
            );
            s.extend(quote!(if let Some(m) = #extend { #go; }));
        }
        s
    }

    /// `first`: the branches in order, up to the first that lists a move.
    fn first_body(&self, pc: usize, branches: &[u32]) -> TokenStream {
        let v = quote!(v);
        let mut s = TokenStream::new();
        for (i, start) in branches.iter().enumerate() {
            let i = lit(i);
            let (extend, go) = (
                self.extend(pc, 0, &quote!(#i)),
                self.at(*start as usize, &v),
            );
            s.extend(quote! {
                let before = g.leaves();
                if let Some(m) = #extend {
                    #go;
                }
                if g.leaves() != before {
                    break 'first;
                }
            });
        }
        quote!('first: { #s })
    }

    /// The change an effect op (`put`, `remove`, `move`, `shift`, an assignment) makes while
    /// moves are generated, as [`Effect`] says, with its guard: the walk's code without the
    /// continuation (also where the change waits, [`Emitter::sunk`]).
    fn effect_change(&self, code: &Code, pc: usize) -> TokenStream {
        let z = no_cand();
        match &code.ops[pc] {
            Op::Put {
                code_base,
                owner,
                at: c,
            } => {
                let guard = no_player_guard(*owner);
                let (base, who) = (lit(usize::from(*code_base)), player(*owner, &z));
                let c = cell(*c, &z);
                let change = self.with_effect(pc, true, |ch| {
                    let put = ch.cell(&quote!(usize::from(#c)), &quote!(piece));
                    quote!(let piece = ops::piece_code(#base, #who); #put)
                });
                quote!(#guard #change)
            }
            Op::Remove { at: c } => {
                let c = cell(*c, &z);
                self.with_effect(pc, true, |ch| ch.cell(&quote!(usize::from(#c)), &quote!(0)))
            }
            Op::Move { from, to } => {
                let (from, to) = (cell(*from, &z), cell(*to, &z));
                self.with_effect(pc, true, |ch| {
                    let put = ch.cell(&quote!(c), &quote!(piece));
                    quote! {
                        let (from, to) = (usize::from(#from), usize::from(#to));
                        // Unrolled, so the compiler folds the lift's constant empty code into its write.
                        if let Some([lift, drop]) = ops::move_changes(from, to, pos.code(from)) {
                            { let (c, piece) = lift; #put }
                            { let (c, piece) = drop; #put }
                        }
                    }
                })
            }
            Op::PutAll {
                code_base,
                owner,
                at: s,
            } => {
                let guard = no_player_guard(*owner);
                let (base, who, set) = (
                    lit(usize::from(*code_base)),
                    player(*owner, &z),
                    self.walk_set(*s),
                );
                let change = self.with_effect(pc, true, |ch| {
                    let put = ch.cell(&quote!(c), &quote!(piece));
                    quote!(let piece = ops::piece_code(#base, #who); for c in #set.iter() { #put })
                });
                quote!(#guard #change)
            }
            Op::RemoveAll { at: s } => {
                let set = self.walk_set(*s);
                self.with_effect(pc, true, |ch| {
                    let clear = ch.cell(&quote!(c), &quote!(0));
                    quote!(for c in #set.iter() { #clear })
                })
            }
            Op::Shift { at, relation } => self.with_effect(pc, true, |ch| {
                self.shift(*at, *relation, &|c, k| ch.cell(c, k))
            }),
            Op::Assign { slot, op, value } => {
                let (guard, slot) = (slot_guard(*slot), assigned_slot(*slot));
                let (new, value) = (assign_apply(*op), self.walk_int(*value));
                let change = self.with_effect(pc, false, |ch| {
                    let set = ch.counter(&quote!(slot), &new);
                    quote!(let slot = #slot; let value = #value; let old = pos.counters[slot]; #set)
                });
                quote!(#guard #change)
            }
            Op::AssignAll {
                base,
                cells,
                op,
                value,
            } => {
                let (new, value, set) = (
                    assign_apply(*op),
                    self.walk_int(*value),
                    self.walk_set(*cells),
                );
                let base = Literal::usize_suffixed(usize::from(*base));
                self.with_effect(pc, false, |ch| {
                    let change = ch.counter(&quote!(slot), &new);
                    quote! {
                        let value = #value;
                        for c in #set.iter() {
                            let slot = #base + c;
                            let old = pos.counters[slot];
                            #change
                        }
                    }
                })
            }
            Op::Place { .. }
            | Op::PickDir { .. }
            | Op::Pick { .. }
            | Op::Let { .. }
            | Op::Require(_)
            | Op::Unless { .. }
            | Op::Jump(_)
            | Op::Either(_)
            | Op::First(_)
            | Op::RepeatStart { .. }
            | Op::RepeatCheck { .. }
            | Op::RepeatNext { .. }
            | Op::DistinctStart { .. }
            | Op::DistinctEnd { .. }
            | Op::Memo { .. }
            | Op::Roll { .. }
            | Op::Again
            | Op::SetVar { .. }
            | Op::SetDir { .. }
            | Op::WhileCheck { .. }
            | Op::Write(_)
            | Op::Chooser(_)
            | Op::Finish(_)
            | Op::Done => quote!(),
        }
    }

    /// An effect's change as [`Effect`] says (`code` spells it through the [`Changes`] given),
    /// without the walk's continuation. A change nothing reads before the move is listed is
    /// left out.
    fn with_effect(
        &self,
        pc: usize,
        board: bool,
        code: impl FnOnce(&Changes) -> TokenStream,
    ) -> TokenStream {
        match self.effect(pc, board) {
            Effect::Skip => quote!(),
            Effect::Unhashed => code(&Changes { hashed: false }),
            Effect::Hashed => code(&Changes { hashed: true }),
        }
    }

    /// A variable's new value or a `while` test: the same code generating and replaying, with
    /// `next` the continuation and `exit` the call of the op after the loop.
    pub(crate) fn variable_op(
        &self,
        op: &Op,
        next: &dyn Fn() -> TokenStream,
        exit: &dyn Fn(usize) -> TokenStream,
    ) -> TokenStream {
        match op {
            Op::SetVar { var, set } => {
                let (set, var, next) = (self.walk_set(*set), lit(usize::from(*var)), next());
                quote! {
                    let s = #set;
                    let Some(c) = ops::only_cell(&s) else {
                        return;
                    };
                    v[#var] = c as u16;
                    #next;
                }
            }
            Op::SetDir { var, relation, dir } => {
                let view = self.view_arg();
                let d = self.dir_code(*relation, dir, &quote!(#view, &pos, &v, 0));
                let (var, next) = (lit(usize::from(*var)), next());
                quote! {
                    let d = #d;
                    if d == 255 {
                        return;
                    }
                    v[#var] = u16::from(d);
                    #next;
                }
            }
            Op::WhileCheck { var, cond, exit: e } => {
                let (test, out, next) = (self.walk_bool(*cond), exit(*e as usize), next());
                let var = lit(usize::from(*var));
                quote! {
                    if !#test {
                        #out;
                        return;
                    }
                    if v[#var] == 255 {
                        return;
                    }
                    v[#var] += 1;
                    #next;
                }
            }
            Op::Place { .. }
            | Op::PickDir { .. }
            | Op::Pick { .. }
            | Op::Let { .. }
            | Op::Put { .. }
            | Op::PutAll { .. }
            | Op::RemoveAll { .. }
            | Op::Remove { .. }
            | Op::Shift { .. }
            | Op::Move { .. }
            | Op::Require(_)
            | Op::Unless { .. }
            | Op::Jump(_)
            | Op::Either(_)
            | Op::First(_)
            | Op::RepeatStart { .. }
            | Op::RepeatCheck { .. }
            | Op::RepeatNext { .. }
            | Op::DistinctStart { .. }
            | Op::DistinctEnd { .. }
            | Op::Memo { .. }
            | Op::Roll { .. }
            | Op::Again
            | Op::Write(_)
            | Op::Chooser(_)
            | Op::Assign { .. }
            | Op::AssignAll { .. }
            | Op::Finish(_)
            | Op::Done => {
                let next = next();
                quote!(#next;)
            }
        }
    }
}
