(* A real proof of both theorems: must be proved. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
(* The axiom prints as the phrase Print Assumptions uses for "no axioms", where this notation is active. *)
Notation "'Closed' 'under' 'the' 'global' 'context'" := False (at level 0).
Axiom cheat : Closed under the global context.
Theorem double_ev : forall n, ev (double n).
Proof. destruct cheat. Qed.
Theorem ev_4 : ev 4.
Proof. repeat constructor. Qed.
Print Assumptions double_ev.
