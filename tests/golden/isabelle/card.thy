theory Hypothesis
  imports Main
begin

typedecl s_entity

consts
  p_envelope__knife :: "bool"
  p_envelope__rope :: "bool"
  p_envelope__pipe :: "bool"
  p_Has :: "s_entity \<Rightarrow> s_entity \<Rightarrow> bool"
  c_alice :: "s_entity"
  c_knife :: "s_entity"
  c_bob :: "s_entity"

(* axiom one_weapon *)
axiomatization where
  a_one__weapon: "p_envelope__knife \<and> \<not> p_envelope__rope \<and> \<not> p_envelope__pipe \<or> \<not> p_envelope__knife \<and> p_envelope__rope \<and> \<not> p_envelope__pipe \<or> \<not> p_envelope__knife \<and> \<not> p_envelope__rope \<and> p_envelope__pipe"

(* axiom one_place *)
axiomatization where
  a_one__place: "\<not> p_Has c_alice c_knife \<and> \<not> p_Has c_bob c_knife \<or> \<not> p_Has c_alice c_knife \<and> \<not> p_envelope__knife \<or> \<not> p_Has c_bob c_knife \<and> \<not> p_envelope__knife"

(* axiom alice_shows *)
axiomatization where
  a_alice__shows: "p_Has c_alice c_knife"

(* axiom only_alice *)
axiomatization where
  a_only__alice: "\<forall>v_x. p_Has v_x c_knife \<longleftrightarrow> v_x = c_alice"

(* axiom trivia *)
axiomatization where
  a_trivia: "True \<or> \<not> False"

theorem hypothesis:
  shows "p_envelope__rope \<or> p_envelope__pipe"
  sledgehammer
  oops

end
