(* The problem every exploit here attacks: two theorems about an inductive predicate and a definition. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
Theorem double_ev : forall n, ev (double n).
Proof. Admitted.
Theorem ev_4 : ev 4.
Proof. Admitted.
