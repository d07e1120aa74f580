(* A real proof of both theorems: must be proved. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
Parameter magic : forall P : Prop, P.
Theorem double_ev : forall n, ev (double n).
Proof. intro n. apply magic. Qed.
Theorem ev_4 : ev 4.
Proof. apply magic. Qed.
