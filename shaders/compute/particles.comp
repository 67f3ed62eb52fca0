#version 450
// Particle update: gravity, drag, a ground plane with restitution, respawn of
// dead particles from a seed, and an atomic count of the living.

layout(local_size_x = 128) in;

struct Particle {
	vec4 pos_life;		// xyz, w: seconds left
	vec4 vel_seed;		// xyz, w: seed bits
};

layout(std430, set = 0, binding = 0) buffer Particles {
	Particle particles[];
};
layout(std430, set = 0, binding = 1) buffer Counters {
	uint alive;
};
layout(set = 0, binding = 2) uniform Sim {
	vec3 gravity;
	float dt;
	vec3 emitter;
	float drag;
	float restitution;
	float lifetime;
	uint count;
} sim;

float rand(inout uint s)
{
	s = s * 747796405u + 2891336453u;
	uint w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
	return float((w >> 22u) ^ w) / 4294967295.0;
}

void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= sim.count)
		return;
	Particle p = particles[i];
	uint seed = floatBitsToUint(p.vel_seed.w);

	p.pos_life.w -= sim.dt;
	if (p.pos_life.w <= 0.0) {
		p.pos_life = vec4(sim.emitter, sim.lifetime * (0.5 + 0.5 * rand(seed)));
		p.vel_seed.xyz = vec3(rand(seed) - 0.5, 2.0 + rand(seed), rand(seed) - 0.5) * 3.0;
	} else {
		vec3 v = p.vel_seed.xyz + sim.gravity * sim.dt;
		v *= exp(-sim.drag * sim.dt);
		vec3 x = p.pos_life.xyz + v * sim.dt;
		if (x.y < 0.0) {
			x.y = -x.y * sim.restitution;
			v.y = -v.y * sim.restitution;
		}
		p.pos_life.xyz = x;
		p.vel_seed.xyz = v;
		atomicAdd(alive, 1u);
	}
	p.vel_seed.w = uintBitsToFloat(seed);
	particles[i] = p;
}
