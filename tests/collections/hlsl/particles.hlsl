// a particle pass: simulation and sorting kernels, expanded to quads by a
// geometry shader
struct Particle { float3 pos; float life; float3 vel; float size; };
RWStructuredBuffer<Particle> Particles : register(u0);
RWStructuredBuffer<uint> Keys : register(u1);
cbuffer Frame : register(b0) { float4x4 ViewProj; float DeltaTime; uint Count; };

[numthreads(64, 1, 1)]
void Simulate(uint3 id : SV_DispatchThreadID)
{
	if (id.x >= Count)
		return;
	Particle p = Particles[id.x];
	p.vel.y -= 9.81 * DeltaTime;
	p.pos += p.vel * DeltaTime;
	p.life -= DeltaTime;
	Particles[id.x] = p;
}

[numthreads(128, 1, 1)]
void SortStep(uint3 id : SV_DispatchThreadID)
{
	uint other = id.x ^ 1;
	if (other > id.x && Keys[id.x] > Keys[other]) {
		uint t = Keys[id.x];
		Keys[id.x] = Keys[other];
		Keys[other] = t;
	}
}

struct GSIn { float4 pos : POSITION; float size : PSIZE; };
struct GSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };

[maxvertexcount(4)]
void Expand(point GSIn input[1], inout TriangleStream<GSOut> quad)
{
	const float2 corners[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };
	for (int i = 0; i < 4; i++) {
		GSOut o;
		o.pos = mul(ViewProj, input[0].pos + float4(corners[i] * input[0].size, 0, 0));
		o.uv = corners[i] * 0.5 + 0.5;
		quad.Append(o);
	}
}
