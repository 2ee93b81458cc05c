theory Hypothesis
  imports Main
begin

typedecl s_bool_22__20__2a__29_'

consts
  p_theory_22__20_imports_20_Main_20_begin :: "s_bool_22__20__2a__29_' \<Rightarrow> bool"
  p_Caf_e9___' :: "s_bool_22__20__2a__29_' \<Rightarrow> bool"
  p_sorry :: "bool"
  c_x_22__20_ML_20__5c__3c_open_3e_' :: "s_bool_22__20__2a__29_'"

(* axiom fact U+002AU+0029 ML U+005C<open> bash U+0022rmU+0022 U+005C<close> U+0028U+002A *)
axiomatization where
  a_fact_20__2a__29__20_ML_20__5c__3c_open_3e__20_bash_20__22_rm_22__20__5c__3c_close_3e__20__28__2a_': "\<forall>v_end_a_'. p_theory_22__20_imports_20_Main_20_begin v_end_a_' \<longrightarrow> v_end_a_' = c_x_22__20_ML_20__5c__3c_open_3e_'"

(* axiom lemma *)
axiomatization where
  a_lemma: "p_Caf_e9___' c_x_22__20_ML_20__5c__3c_open_3e_'"

(* axiom rule_ *)
axiomatization where
  a_rule__': "p_sorry"

theorem hypothesis:
  shows "\<exists>v_end_a_'. p_Caf_e9___' v_end_a_'"
  sledgehammer
  oops

end
