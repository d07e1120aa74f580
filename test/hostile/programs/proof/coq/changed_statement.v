(* A real proof of both theorems: must be proved. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
Theorem double_ev : True.
Proof. exact I. Qed.
Theorem ev_4 : ev 4.
Proof. repeat constructor. Qed.
