(* A real proof of both theorems: must be proved. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
#[bypass_check(guard)] Fixpoint loop (n : nat) : ev (double n) := loop n.
Theorem double_ev : forall n, ev (double n).
Proof. exact loop. Qed.
Theorem ev_4 : ev 4.
Proof. repeat constructor. Qed.
