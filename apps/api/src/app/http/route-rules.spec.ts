import { Controller, Get, Post } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { Public } from '../auth/public.decorator';
import { RouteRules } from './route-rules';

const configOf = (handler: object): RouteRules | undefined => Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler);

describe(RouteRules.name, () => {
  it('merges with @Public() on a handler, whichever is written first', () => {
    @Controller('things')
    class ThingsController {
      @Post()
      @Public()
      @RouteRules({ jsonBody: true, noQuery: true })
      rulesBelow() {
        return undefined;
      }

      @Get()
      @RouteRules({ headers: { deprecation: '@1' }, noQuery: true })
      @Public()
      rulesAbove() {
        return undefined;
      }
    }

    expect(configOf(ThingsController.prototype.rulesBelow)).toEqual({ public: true, jsonBody: true, noQuery: true });
    expect(configOf(ThingsController.prototype.rulesAbove)).toEqual({ public: true, headers: { deprecation: '@1' }, noQuery: true });
  });

  it("on a controller, reaches every handler and keeps the handler's own rules, and nothing else", () => {
    @Public()
    @Controller('probes')
    class ProbesController {
      @Get('live')
      live() {
        return undefined;
      }

      @Get('ready')
      @RouteRules({ noQuery: true })
      ready() {
        return undefined;
      }

      helper() {
        return undefined;
      }
    }

    expect(configOf(ProbesController.prototype.live)).toEqual({ public: true });
    expect(configOf(ProbesController.prototype.ready)).toEqual({ public: true, noQuery: true });
    expect(configOf(ProbesController.prototype.helper)).toBeUndefined();
  });
});
