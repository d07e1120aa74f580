(* A real proof of both theorems: must be proved. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
Unset Positivity Checking.
Inductive bad : Prop := mk : (bad -> False) -> bad.
Set Positivity Checking.
Lemma not_bad : bad -> False. Proof. intros [f]. apply f. constructor. exact f. Qed.
Lemma yes_bad : bad. Proof. constructor. exact not_bad. Qed.
Theorem double_ev : forall n, ev (double n).
Proof. destruct (not_bad yes_bad). Qed.
Theorem ev_4 : ev 4.
Proof. repeat constructor. Qed.
