theory Hypothesis
  imports Main
begin

typedecl s_entity
typedecl s_event

consts
  p_Tea :: "s_entity \<Rightarrow> bool"
  p_Bergamot :: "s_entity \<Rightarrow> bool"
  p_Infuse :: "s_event \<Rightarrow> bool"
  p_Agent :: "s_event \<Rightarrow> s_entity \<Rightarrow> bool"
  p_Patient :: "s_event \<Rightarrow> s_entity \<Rightarrow> bool"
  p_EarlGrey :: "s_entity \<Rightarrow> bool"
  p_CeylonTea :: "s_entity \<Rightarrow> bool"

(* axiom fact_1 *)
axiomatization where
  a_fact__1: "\<exists>v_x v_y v_e. p_Tea v_x \<and> p_Bergamot v_y \<and> p_Infuse v_e \<and> p_Agent v_e v_x \<and> p_Patient v_e v_y"

(* axiom rule_2 *)
axiomatization where
  a_rule__2: "\<forall>v_x v_y v_e. p_Tea v_x \<and> p_Bergamot v_y \<and> p_Infuse v_e \<and> p_Agent v_e v_x \<and> p_Patient v_e v_y \<longrightarrow> p_EarlGrey v_x \<and> \<not> p_CeylonTea v_x"

theorem hypothesis:
  shows "\<exists>v_x. p_EarlGrey v_x"
  sledgehammer
  oops

end
