//! Replay: a known move applied, one function `apN` per op. Decisions are read, not tried,
//! tests that only reject moves are skipped, and changes go to the host and to the position
//! value.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use rulestone_ir::{Code, Finish, Op, PlayerRef};

use crate::sets::{cell, player};
use crate::walk::{assigned_slot, no_cand, no_player_guard, slot_guard};
use crate::{assign_apply, lit, signed, Call, Emitter};

impl Emitter<'_> {
    /// `apply`, `replay`, the turn on the position value (`Turn`) and the replay functions.
    pub(crate) fn replay_fns(&self) -> TokenStream {
        self.replaying.set(true);
        let items = self.replay_items();
        self.replaying.set(false);
        items
    }

    /// [`Emitter::replay_fns`], built while `replaying` is set.
    fn replay_items(&self) -> TokenStream {
        let code = &self.p.turn;
        let (generic, host) = self.replay_host();
        let first = self.replay_at(0, &quote!([0; 16]));
        let fast = if crate::runs_fast(self.p) {
            quote! {
                #[doc = " The turn on the position value alone (see `FastTurn`)."]
                pub struct Turn;

                impl FastTurn for Turn {
                    type P = P;

                    #[inline]
                    fn generate(e: &mut Fast<'_, P>, g: &mut Gen<'_>) {
                        let pos = walk_pos(&e.pos);
                        walk(&e.view(), pos, g);
                    }

                    #[inline]
                    fn apply(e: &mut Fast<'_, P>, m: &Move) {
                        let pos = e.pos;
                        replay(e, pos, m);
                    }
                }
            }
        } else {
            quote!()
        };
        let bodies: Vec<(usize, TokenStream)> = (0..code.ops.len())
            .filter(|&pc| code.busy[pc] as usize == pc)
            .map(|pc| (pc, self.replay_body(code, pc)))
            .collect();
        let fns = bodies.into_iter().map(|(pc, body)| {
            let attr = self.inline_attr(Call::Replay(pc));
            let f = format_ident!("ap{}", pc);
            quote! {
                #attr
                fn #f #generic(e: &mut #host, mut v: V, pos: &mut P, r: &mut Replay<'_>) {
                    #body
                }
            }
        });
        let fns = fns.collect::<Vec<_>>();
        quote! {
            pub fn apply(e: &mut Engine<'_>, m: &Move) {
                let pos = P::of(e);
                replay(e, pos, m)
            }

            #[inline(always)]
            fn replay #generic(e: &mut #host, mut pos: P, m: &Move) {
                let r = &mut Replay::new(m);
                let pos = &mut pos;
                #first
            }

            #fast
            #(#fns)*
        }
    }

    /// The op at `pc` when a known move is applied: decisions are read, not tried, tests that
    /// only reject moves are skipped, and changes go to the host and to the position value,
    /// which the expressions read; to the value hashed only when the rules read
    /// `repetitions`, whose hash then follows the move (and a run on the position value keeps
    /// it from move to move).
    fn replay_body(&self, code: &Code, pc: usize) -> TokenStream {
        let v = quote!(v);
        let next = || self.replay_at(pc + 1, &v);
        let ends = |next: TokenStream| quote!(#next;);
        match &code.ops[pc] {
            Op::Pick { var, .. } if self.p.wide_picks() => {
                let (var, next) = (lit(usize::from(*var)), next());
                quote! {
                    let hi = r.decision();
                    v[#var] = ops::two_decisions(hi, r.decision());
                    #next;
                }
            }
            Op::Pick { var, .. } | Op::PickDir { var, .. } => {
                let (var, next) = (lit(usize::from(*var)), next());
                quote!(v[#var] = u16::from(r.decision()); #next;)
            }
            Op::Place {
                slot,
                anchor,
                table,
                player: who,
                layer,
                ..
            } => self.replay_place((*slot, *anchor, *table, *layer), *who, &next()),
            Op::Let {
                slot,
                set,
                replay: true,
            } if self.replay_locals[usize::from(*slot)] => {
                let (slot, set, next) = (lit(usize::from(*slot)), self.walk_set(*set), next());
                quote!(pos.locals[#slot] = #set; #next;)
            }
            // Both branches do the same on replay.
            Op::Unless { .. } if self.replay_skips[pc] => {
                ends(self.replay_at(self.replay_resolve(pc, 0), &v))
            }
            Op::Put { .. }
            | Op::Remove { .. }
            | Op::Move { .. }
            | Op::PutAll { .. }
            | Op::RemoveAll { .. }
            | Op::Shift { .. } => self.replay_cells(&code.ops[pc], &next),
            Op::Assign { .. } | Op::AssignAll { .. } | Op::Roll { .. } => {
                self.replay_counters(&code.ops[pc], &next)
            }
            Op::Unless { cond, target } => {
                let (test, go) = (self.walk_bool(*cond), next());
                let stop = self.replay_at(*target as usize, &v);
                quote!(if #test { #go; } else { #stop; })
            }
            Op::Jump(target) => ends(self.replay_at(*target as usize, &v)),
            Op::Either(branches) | Op::First(branches) => {
                let arms = branches.iter().enumerate().map(|(i, start)| {
                    let (i, go) = (lit(i), self.replay_at(*start as usize, &v));
                    quote!(#i => #go,)
                });
                let arms = arms.collect::<Vec<_>>();
                let end = self.replay_at(code.ops.len() - 1, &v);
                quote!(match r.decision() { #(#arms)* _ => #end, })
            }
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
                let (stop, go) = (self.replay_at(*exit as usize, &v), next());
                let (stop2, go2) = (self.replay_at(*exit as usize, &v), next());
                let (var, min, max) = (
                    lit(usize::from(*var)),
                    lit(usize::from(*min)),
                    lit(usize::from(*max)),
                );
                quote! {
                    let rounds = v[#var];
                    match ops::repeat_bounds(rounds, #min, #max) {
                        (true, true) => {
                            if r.decision() == 0 {
                                #stop;
                            } else {
                                #go;
                            }
                        }
                        (true, false) => #stop2,
                        _ => #go2,
                    }
                }
            }
            Op::RepeatNext { var, check } => {
                let (var, go) = (lit(usize::from(*var)), self.replay_at(*check as usize, &v));
                quote!(v[#var] = v[#var].wrapping_add(1); #go;)
            }
            Op::Finish(f) => replay_finish(*f),
            Op::Done => quote!(e.rt_end(&pos);),
            Op::Again => {
                let next = next();
                quote!(e.rt_again(); #next;)
            }
            Op::SetVar { .. } | Op::SetDir { .. } | Op::WhileCheck { .. } => {
                self.variable_op(&code.ops[pc], &next, &|exit| self.replay_at(exit, &v))
            }
            // Checks, `let`s only picks read, `distinct` and text: nothing to do on replay.
            Op::Let { .. }
            | Op::Require(_)
            | Op::DistinctStart { .. }
            | Op::DistinctEnd { .. }
            | Op::Memo { .. }
            | Op::Chooser(_)
            | Op::Write(_) => ends(next()),
        }
    }

    /// `place` replayed: the instance's index from two decisions, the copy put down.
    fn replay_place(
        &self,
        (slot, anchor, table, layer): (u8, u8, u16, u16),
        who: PlayerRef,
        next: &TokenStream,
    ) -> TokenStream {
        let hashed = self.p.uses_history();
        let (guard, who) = (no_player_guard(who), player(who, &no_cand()));
        let (table, layer) = (
            lit(usize::from(table)),
            Literal::usize_suffixed(usize::from(layer)),
        );
        let (anchor, local) = (lit(usize::from(anchor)), lit(self.placed_local(slot)));
        quote! {
            #guard
            let hi = r.decision();
            let lo = r.decision();
            let index = ops::two_decisions(hi, lo);
            let table = &e.program().placements[#table];
            let Some(inst) = table.instances.get(usize::from(index)) else {
                return;
            };
            let who = #who;
            let parts = table.parts_of(inst);
            let z = ops::settle(parts, &pos.counters, #layer);
            let shape = e.program().shapes.get(usize::from(inst.shape));
            for (slot, value) in ops::placement_changes(parts, shape, &pos.counters, #layer, z, who) {
                e.rt_set_counter(slot, value);
                pos.set_counter::<#hashed>(e.zobrist(), slot, value);
            }
            v[#anchor] = inst.anchor;
            pos.locals[#local] = S::from_set(inst.cells);
            #next;
        }
    }

    /// A change to the board replayed: to the host (the engine's trail) and to the position
    /// value, then `next`.
    fn replay_cells(&self, op: &Op, next: &dyn Fn() -> TokenStream) -> TokenStream {
        let hashed = self.p.uses_history();
        let both = |cell: &TokenStream, piece: &TokenStream| {
            quote! {
                e.rt_set_cell(#cell, #piece);
                pos.set_cell::<#hashed>(e.zobrist(), #cell, #piece);
            }
        };
        let z = no_cand();
        let (c, piece, zero) = (quote!(c), quote!(piece), quote!(0));
        match op {
            Op::Put {
                code_base,
                owner,
                at,
            } => {
                let guard = no_player_guard(*owner);
                let (base, who, at) = (
                    lit(usize::from(*code_base)),
                    player(*owner, &z),
                    cell(*at, &z),
                );
                let (set, next) = (both(&c, &piece), next());
                quote! {
                    #guard
                    let piece = ops::piece_code(#base, #who);
                    let c = usize::from(#at);
                    #set
                    #next;
                }
            }
            Op::Remove { at } => {
                let (at, set, next) = (cell(*at, &z), both(&c, &zero), next());
                quote!(let c = usize::from(#at); #set #next;)
            }
            Op::Move { from, to } => {
                let (f, t) = (cell(*from, &z), cell(*to, &z));
                let (put, next) = (both(&c, &piece), next());
                quote! {
                    let (from, to) = (usize::from(#f), usize::from(#t));
                    // Unrolled, so the compiler folds the lift's constant empty code into its write.
                    if let Some([lift, drop]) = ops::move_changes(from, to, pos.code(from)) {
                        { let (c, piece) = lift; #put }
                        { let (c, piece) = drop; #put }
                    }
                    #next;
                }
            }
            Op::PutAll {
                code_base,
                owner,
                at,
            } => {
                let guard = no_player_guard(*owner);
                let (base, who, set) = (
                    lit(usize::from(*code_base)),
                    player(*owner, &z),
                    self.walk_set(*at),
                );
                let (put, next) = (both(&c, &piece), next());
                quote! {
                    #guard
                    let piece = ops::piece_code(#base, #who);
                    for c in #set.iter() {
                        #put
                    }
                    #next;
                }
            }
            Op::RemoveAll { at } => {
                let (set, clear, next) = (self.walk_set(*at), both(&c, &zero), next());
                quote!(for c in #set.iter() { #clear } #next;)
            }
            Op::Shift { at, relation } => {
                let (shift, next) = (self.shift(*at, *relation, &both), next());
                quote!(#shift #next;)
            }
            Op::Place { .. }
            | Op::PickDir { .. }
            | Op::Pick { .. }
            | Op::Let { .. }
            | Op::Assign { .. }
            | Op::AssignAll { .. }
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
            | Op::Done => {
                let next = next();
                quote!(#next;)
            }
        }
    }

    /// A change to the counters replayed: to the host and to the position value, then `next`.
    fn replay_counters(&self, op: &Op, next: &dyn Fn() -> TokenStream) -> TokenStream {
        let hashed = self.p.uses_history();
        // A counter's new value in the position value.
        let counter = |slot: &TokenStream, value: &TokenStream| {
            if hashed {
                quote!(pos.set_counter::<true>(e.zobrist(), #slot, #value);)
            } else {
                quote!(pos.counters[#slot] = #value;)
            }
        };
        match op {
            Op::Assign { slot, op, value } => {
                let (guard, slot) = (slot_guard(*slot), assigned_slot(*slot));
                let (new, value) = (assign_apply(*op), self.walk_int(*value));
                let (set, next) = (counter(&quote!(slot), &quote!(new)), next());
                quote! {
                    #guard
                    let slot = #slot;
                    let value = #value;
                    let old = pos.counters[slot];
                    let new = #new;
                    e.rt_set_counter(slot, new);
                    #set
                    #next;
                }
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
                let (change, next) = (counter(&quote!(slot), &quote!(new)), next());
                quote! {
                    let value = #value;
                    for c in #set.iter() {
                        let slot = #base + c;
                        let old = pos.counters[slot];
                        let new = #new;
                        e.rt_set_counter(slot, new);
                        #change
                    }
                    #next;
                }
            }
            Op::Roll { slot, lo, .. } => {
                let (slot, lo) = (lit(usize::from(*slot)), signed(i64::from(*lo)));
                let (set, next) = (counter(&quote!(#slot), &quote!(value)), next());
                quote! {
                    let value = ops::roll_value(#lo, u16::from(r.decision()));
                    e.rt_set_counter(#slot, value);
                    #set
                    #next;
                }
            }
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
            | Op::Again
            | Op::SetVar { .. }
            | Op::SetDir { .. }
            | Op::WhileCheck { .. }
            | Op::Write(_)
            | Op::Chooser(_)
            | Op::Finish(_)
            | Op::Done => {
                let next = next();
                quote!(#next;)
            }
        }
    }
}

/// The end of the turn replayed: its result, with the guard for no player.
fn replay_finish(f: Finish) -> TokenStream {
    let z = no_cand();
    let (guard, result) = match f {
        Finish::Win(p) => {
            let who = player(p, &z);
            (no_player_guard(p), quote!(ops::finish(true, #who)))
        }
        Finish::Lose(p) => {
            let who = player(p, &z);
            (no_player_guard(p), quote!(ops::finish(false, #who)))
        }
        Finish::Draw => (quote!(), quote!(GameResult::Draw)),
    };
    quote! {
        #guard
        e.rt_finish(#result);
        e.rt_end(&pos);
    }
}
