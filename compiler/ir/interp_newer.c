/*
 * The interpreter on the intrinsics of newer shader features — the fragment
 * barycentrics, shading rate and density values, mesh and task shaders, ray
 * tracing — as fixed models, so that every intrinsic of intrinsics.def runs
 * (INTERP.md, "Newer features"):
 *
 *   barycentrics     (0.25 + 0.125·(lane & 1), 0.25 + 0.125·(lane >> 1 & 1), the rest)
 *   shading rate 0, fragment size (1, 1), one invocation, fully covered
 *   payload, hit attribute and shader record addresses: the global buffer's base
 *   launch id (lane, 0, 0) of (lanes, 1, 1); a ray from the origin along +z,
 *   t in [0, 1000], cull mask 0xff, other ids, kinds and flags 0, the
 *   object-to-world and world-to-object matrices the identity, the hit
 *   triangle (0,0,0), (1,0,0), (0,1,0)
 *   trace_ray, execute_callable, set_vertex_and_primitive_count and
 *   launch_mesh_workgroups do nothing the run can see (their effects are
 *   the driver's); report_ray_intersection says the hit was not accepted;
 *   ignore_ray_intersection and terminate_ray end the lane; a ray query
 *   finds nothing (rq_proceed false, every value 0 but t, which is 1000).
 */
#include "compiler/ir/interp_priv.h"

static void put(struct ictx *c, struct intrinsic_instr *intr, unsigned l, unsigned k, uint64_t v,
		bool is_float)
{
	iput(c, &intr->def, l, k, v, false, is_float);
}

static void put_f(struct ictx *c, struct intrinsic_instr *intr, unsigned l, unsigned k, double v)
{
	put(c, intr, l, k, ir_float_to_bits(v, 32), true);
}

static void put_vec3(struct ictx *c, struct intrinsic_instr *intr, unsigned l, double x, double y,
		     double z)
{
	put_f(c, intr, l, 0, x);
	put_f(c, intr, l, 1, y);
	put_f(c, intr, l, 2, z);
}

/* A value for lane `l`; false when `intr` is none of ours. */
static bool value(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	double b0 = 0.25 + 0.125 * (l & 1), b1 = 0.25 + 0.125 * (l >> 1 & 1);
	switch (intr->op) {
	case INTR_load_barycentric_coord: case INTR_load_barycentric_coord_noperspective:
		put_vec3(c, intr, l, b0, b1, 1 - b0 - b1);
		return true;
	case INTR_load_frag_shading_rate: case INTR_load_ray_instance_custom_index:
	case INTR_load_ray_instance_index: case INTR_load_ray_geometry_index:
	case INTR_load_ray_hit_kind: case INTR_load_ray_flags:
		put(c, intr, l, 0, 0, false);
		return true;
	case INTR_load_frag_size:
		put(c, intr, l, 0, 1, false);
		put(c, intr, l, 1, 1, false);
		return true;
	case INTR_load_frag_invocation_count: case INTR_load_fully_covered:
		put(c, intr, l, 0, 1, false);
		return true;
	case INTR_load_task_payload_address: case INTR_load_ray_payload_address:
	case INTR_load_ray_hit_attrib_address: case INTR_load_shader_record_address:
		put(c, intr, l, 0, c->in->global_base, false);
		return true;
	case INTR_load_ray_launch_id:
		put(c, intr, l, 0, l, false);
		put(c, intr, l, 1, 0, false);
		put(c, intr, l, 2, 0, false);
		return true;
	case INTR_load_ray_launch_size:
		put(c, intr, l, 0, c->nl, false);
		put(c, intr, l, 1, 1, false);
		put(c, intr, l, 2, 1, false);
		return true;
	case INTR_load_ray_world_origin: case INTR_load_ray_object_origin:
		put_vec3(c, intr, l, 0, 0, 0);
		return true;
	case INTR_load_ray_world_direction: case INTR_load_ray_object_direction:
		put_vec3(c, intr, l, 0, 0, 1);
		return true;
	case INTR_load_ray_t_min: put_f(c, intr, l, 0, 0); return true;
	case INTR_load_ray_t_max: put_f(c, intr, l, 0, 1000); return true;
	case INTR_load_ray_cull_mask: put(c, intr, l, 0, 0xff, false); return true;
	case INTR_load_ray_triangle_vertex: {
		uint64_t v = isrc(c, intr, 0, l);
		put_vec3(c, intr, l, v == 1, v == 2, 0);
		return true;
	}
	case INTR_load_ray_object_to_world: case INTR_load_ray_world_to_object: {
		uint64_t col = isrc(c, intr, 0, l);
		put_vec3(c, intr, l, col == 0, col == 1, col == 2);
		return true;
	}
	case INTR_report_ray_intersection: put(c, intr, l, 0, 0, false); return true;
	case INTR_rq_proceed: put(c, intr, l, 0, 0, false); return true;
	case INTR_rq_load: {
		unsigned v = (unsigned)intrinsic_get(intr, INTR_IDX_component) / 2;
		bool is_float = v == RQ_t || v == RQ_t_min || v == RQ_barycentrics || v >= RQ_object_direction;
		for (unsigned k = 0; k < intr->def.num_components; k++)
			put(c, intr, l, k, v == RQ_t ? ir_float_to_bits(1000, 32) : 0, is_float);
		return true;
	}
	default: return false;
	}
}

bool interp_exec_newer(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	switch (intr->op) {
	case INTR_trace_ray: case INTR_execute_callable: case INTR_set_vertex_and_primitive_count:
	case INTR_launch_mesh_workgroups: case INTR_rq_initialize: case INTR_rq_terminate:
	case INTR_rq_generate_intersection: case INTR_rq_confirm_intersection:
		return true;
	case INTR_ignore_ray_intersection: case INTR_terminate_ray:
		for (unsigned i = 0; i < ls->n; i++) {
			c->lane[ls->l[i]].state = LS_TERMINATED;
			c->lanes_changed = true;
		}
		return true;
	default:
		break;
	}
	for (unsigned i = 0; i < ls->n; i++)
		if (!value(c, intr, ls->l[i]))
			return false;
	return true;
}
