theory Replay
  imports Main
begin

typedecl s_entity
typedecl s_event

consts
  p_Tea :: "s_entity ⇒ bool"
  p_Bergamot :: "s_entity ⇒ bool"
  p_Infuse :: "s_event ⇒ bool"
  p_Agent :: "s_event ⇒ s_entity ⇒ bool"
  p_Patient :: "s_event ⇒ s_entity ⇒ bool"
  p_EarlGrey :: "s_entity ⇒ bool"
  p_CeylonTea :: "s_entity ⇒ bool"

(* axiom fact_1 *)
axiomatization where
  a_fact__1: "∃v_x v_y v_e. p_Tea v_x ∧ p_Bergamot v_y ∧ p_Infuse v_e ∧ p_Agent v_e v_x ∧ p_Patient v_e v_y"

(* axiom rule_2 *)
axiomatization where
  a_rule__2: "∀v_x v_y v_e. p_Tea v_x ∧ p_Bergamot v_y ∧ p_Infuse v_e ∧ p_Agent v_e v_x ∧ p_Patient v_e v_y ⟶ p_EarlGrey v_x ∧ ¬ p_CeylonTea v_x"

theorem hypothesis:
  shows "∃v_x. p_EarlGrey v_x"
  by (metis a_fact__1 a_rule__2)

end
