(* A real proof of both theorems: must be proved. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
Declare ML Module "coq-core.plugins.extraction".
Extraction "Candidate.vo" double.
Theorem double_ev : forall n, ev (double n).
Proof. Admitted.
Theorem ev_4 : ev 4.
Proof. repeat constructor. Qed.
