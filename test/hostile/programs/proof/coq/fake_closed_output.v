(* A real proof of both theorems: must be proved. *)
Inductive ev : nat -> Prop := ev0 : ev 0 | evSS (n : nat) : ev n -> ev (S (S n)).
Definition double (n : nat) := n + n.
Axiom cheat : False.
Theorem double_ev : forall n, ev (double n).
Proof. destruct cheat. Qed.
Theorem ev_4 : ev 4.
Proof. repeat constructor. Qed.
(* What a checker that reads the compile output would take for a clean bill of health. *)
Goal True. idtac "Closed under the global context". exact I. Qed.
Require Import String. Check "Closed under the global context"%string.
